package io.kaas.engine.segments.internal;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.CorruptBatchException;
import io.kaas.api.record.RecordBatches;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a partition's segments after a clean stop or a crash. Closed segments were fsynced at roll:
 * their indexes are checked and rebuilt from batch headers if missing or inconsistent. The last
 * segment is scanned in full: every batch is validated ({@link RecordBatches#validateOne}: sizes,
 * magic, CRC32C) and must continue the offsets; the file is truncated (and fsynced) at the first
 * batch that does not, before any write. The scan also rebuilds the last segment's index and the
 * producer-state table.
 */
final class LogRecovery {
    private static final Logger LOG = LoggerFactory.getLogger(LogRecovery.class);

    /** What recovery found: the segments (ascending), the log start and end, and the producer state. */
    record Result(ConcurrentSkipListMap<Long, Segment> segments, long logStartOffset, long logEndOffset,
                  ProducerStateTable producers, long truncatedBytes) {
    }

    private LogRecovery() {
    }

    static Result recover(PartitionDirectory dir) throws IOException {
        List<Long> bases = new ArrayList<>(dir.segmentBaseOffsets());
        long manifestStart = dir.readManifest().map(Manifest::logStartOffset).orElse(-1L);
        if (bases.isEmpty()) {
            bases.add(Math.max(0L, manifestStart));
        }
        ConcurrentSkipListMap<Long, Segment> segments = new ConcurrentSkipListMap<>();
        try {
            for (int i = 0; i < bases.size() - 1; i++) {
                Segment seg = Segment.open(dir, bases.get(i));
                segments.put(seg.baseOffset(), seg);
                long size = seg.channel().size();
                seg.restore(size, bases.get(i + 1));
                checkIndex(seg, size);
                seg.index().close();
            }
            ProducerStateTable producers = new ProducerStateTable();
            Segment last = Segment.open(dir, bases.get(bases.size() - 1));
            segments.put(last.baseOffset(), last);
            long truncated = scanLastSegment(last, producers);
            long logStart = Math.max(manifestStart, bases.get(0));
            if (logStart > last.nextOffset()) {
                // The tail below a persisted log start was lost (it was never fsynced): start empty at the log start.
                Segment fresh = Segment.open(dir, logStart);
                fresh.restore(0, logStart);
                segments.put(logStart, fresh);
                last.seal();
            }
            return new Result(segments, logStart, segments.lastEntry().getValue().nextOffset(), producers, truncated);
        } catch (IOException | RuntimeException e) {
            for (Segment s : segments.values()) {
                try {
                    s.close();
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
    }

    /** Validates every batch of the active segment, truncating the file at the first bad one. */
    private static long scanLastSegment(Segment seg, ProducerStateTable producers) throws IOException {
        long fileSize = seg.channel().size();
        seg.index().reset();
        long pos = 0;
        long expected = seg.baseOffset();
        String reason = null;
        while (pos < fileSize) {
            BatchHeader announced = seg.readHeader(pos, fileSize);
            if (announced == null) {
                reason = "torn batch header";
                break;
            }
            if (announced.sizeInBytes() < RecordBatches.HEADER_SIZE || announced.sizeInBytes() > fileSize - pos) {
                reason = "batch length " + announced.sizeInBytes() + " does not fit the file";
                break;
            }
            BatchHeader h;
            try {
                h = RecordBatches.validateOne(seg.read(pos, announced.sizeInBytes()), 0, pos);
            } catch (CorruptBatchException e) {
                reason = e.getMessage();
                break;
            }
            if (h.baseOffset() != expected) {
                reason = "batch base offset " + h.baseOffset() + " where " + expected + " was expected";
                break;
            }
            producers.replay(h);
            seg.indexBatch(pos, h.baseOffset(), h.sizeInBytes());
            pos += h.sizeInBytes();
            expected = h.nextOffset();
        }
        long truncated = fileSize - pos;
        if (truncated > 0) {
            LOG.atWarn().addKeyValue("file", seg.logPath()).addKeyValue("position", pos)
                    .addKeyValue("bytesDropped", truncated).addKeyValue("reason", reason)
                    .setMessage("truncating an unreadable log tail left by a crash").log();
            seg.channel().truncate(pos);
            seg.channel().force(true);
        }
        seg.index().flush();
        seg.restore(pos, expected);
        return truncated;
    }

    /** Keeps a closed segment's index if it is consistent with the log, else rebuilds it from batch headers. */
    private static void checkIndex(Segment seg, long size) throws IOException {
        if (indexIsConsistent(seg, size)) {
            return;
        }
        LOG.atInfo().addKeyValue("file", seg.index().path()).setMessage("rebuilding a missing or inconsistent index").log();
        seg.index().reset();
        long pos = 0;
        while (pos < size) {
            BatchHeader h = seg.readHeader(pos, size);
            if (h == null || h.sizeInBytes() < RecordBatches.HEADER_SIZE) {
                break;
            }
            seg.indexBatch(pos, h.baseOffset(), h.sizeInBytes());
            pos += h.sizeInBytes();
        }
        seg.index().flush();
    }

    private static boolean indexIsConsistent(Segment seg, long size) throws IOException {
        SegmentIndex index = seg.index();
        int n = index.count();
        if (n == 0) {
            return size == 0;
        }
        if (index.relativeOffsetAt(0) != 0 || index.positionAt(0) != 0) {
            return false;
        }
        for (int i = 1; i < n; i++) {
            if (index.relativeOffsetAt(i) <= index.relativeOffsetAt(i - 1) || index.positionAt(i) <= index.positionAt(i - 1)) {
                return false;
            }
        }
        long lastPos = Integer.toUnsignedLong(index.positionAt(n - 1));
        BatchHeader h = seg.readHeader(lastPos, size);
        return h != null && h.baseOffset() == seg.baseOffset() + index.relativeOffsetAt(n - 1);
    }
}
