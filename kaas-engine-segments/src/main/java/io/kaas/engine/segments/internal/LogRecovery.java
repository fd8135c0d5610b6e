package io.kaas.engine.segments.internal;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.CorruptBatchException;
import io.kaas.api.record.RecordBatches;
import io.kaas.records.ProducerWindows;
import io.kaas.records.TransactionTracker;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a partition's segments after a clean stop or a crash.
 *
 * <ul>
 *   <li>The {@code clean-shutdown} marker is consumed (deleted, durably) first: from then on a crash is
 *       recovered as a crash.</li>
 *   <li>Closed segments were fsynced at roll: their {@code .index} and {@code .timeindex} are checked
 *       (cheaply: structure plus one header) and rebuilt from batch headers if missing or inconsistent.</li>
 *   <li>The last segment: after a clean stop whose checkpoint covers the whole file, nothing is scanned.
 *       Otherwise every batch after the {@code recovery-checkpoint.json} position (the whole file without
 *       a usable checkpoint) is validated ({@link RecordBatches#validateOne}: sizes, magic, CRC32C) and
 *       must continue the offsets; the file is truncated (and fsynced) at the first that does not, before
 *       any write handle is used.</li>
 *   <li>Producer state: {@code producer-state.snapshot} is loaded and the batch headers from its offset on
 *       are replayed.</li>
 * </ul>
 */
final class LogRecovery {
    private static final Logger LOG = LoggerFactory.getLogger(LogRecovery.class);

    /**
     * What recovery found and did.
     *
     * @param scannedBytes    bytes of the last segment validated batch by batch (0 after a clean stop)
     * @param scanFrom        position the validation started at (the checkpoint's, or 0)
     * @param rebuiltIndexes  number of {@code .index}/{@code .timeindex} pairs rebuilt from the log
     * @param replayedBatches batch headers replayed into the producer state after its snapshot
     * @param transactions    open transactions and aborted ranges: the snapshot's, then replayed as the producers
     */
    record Result(ConcurrentSkipListMap<Long, Segment> segments, long logStartOffset, long logEndOffset,
                  ProducerWindows producers, TransactionTracker transactions, long truncatedBytes,
                  boolean cleanShutdown, long scannedBytes, long scanFrom, int rebuiltIndexes, long replayedBatches) {
    }

    private static final class Stats {
        long scanned;
        long scanFrom;
        int rebuilt;
        long replayed;
        long truncated;
    }

    private LogRecovery() {
    }

    static Result recover(PartitionDirectory dir, long nowMs) throws IOException {
        return recover(dir, EpochHistory.EMPTY, nowMs);
    }

    /**
     * Recovers the partition for its writer at {@code dir.epoch()}. {@code history} holds that epoch already
     * (written before, at the takeover) unless the epoch is 0 and nothing else ever wrote the directory. Segment files
     * of earlier epochs are opened read-only and bounded at the next epoch's start ({@link EpochHistory}); if the last
     * one is such a file, a new segment of this epoch starts where it is bounded.
     */
    static Result recover(PartitionDirectory dir, EpochHistory history, long nowMs) throws IOException {
        boolean clean = dir.consumeCleanShutdownMarker();
        Optional<RecoveryCheckpoint> checkpoint = dir.readCheckpoint();
        List<SegmentFile> files = countingFiles(dir, history);
        long manifestStart = dir.readManifest().map(Manifest::logStartOffset).orElse(-1L);
        dropTrailingEmptySegments(dir, files, checkpoint);
        if (files.isEmpty()) {
            files.add(dir.ownSegment(Math.max(0L, manifestStart)));
        }
        Stats stats = new Stats();
        ConcurrentSkipListMap<Long, Segment> segments = new ConcurrentSkipListMap<>();
        try {
            for (int i = 0; i < files.size() - 1; i++) {
                Segment seg = Segment.open(dir, files.get(i));
                segments.put(seg.baseOffset(), seg);
                long nextBase = files.get(i + 1).baseOffset();
                long bound = history.nextStart(seg.epoch());
                if (seg.readOnly() && bound <= nextBase) {
                    recoverBounded(seg, bound, nextBase, stats);
                } else {
                    recoverClosed(seg, nextBase, stats);
                }
            }
            Segment last = Segment.open(dir, files.get(files.size() - 1));
            segments.put(last.baseOffset(), last);
            if (last.readOnly()) {
                // the last data is an earlier writer's: this epoch starts where the history bounds it
                long bound = history.nextStart(last.epoch());
                if (bound == Long.MAX_VALUE) {
                    throw new IllegalStateException("no epoch history entry bounds " + last.logPath());
                }
                recoverBounded(last, bound, bound, stats);
                Segment fresh = Segment.open(dir, dir.ownSegment(bound));
                fresh.restore(0, bound);
                segments.put(bound, fresh);
                last = fresh;
            } else {
                recoverLast(dir, last, checkpoint.filter(c -> c.segment() == files.get(files.size() - 1).baseOffset()),
                        clean, nowMs, stats);
            }
            long logStart = Math.max(manifestStart, files.get(0).baseOffset());
            if (logStart > last.nextOffset()) {
                // The tail below a persisted log start was lost (it was never fsynced): start empty at the log start.
                Segment fresh = Segment.open(dir, logStart);
                fresh.restore(0, logStart);
                segments.put(logStart, fresh);
                last.seal(dir::sync);
            }
            long logEnd = segments.lastEntry().getValue().nextOffset();
            ProducerWindows producers = new ProducerWindows();
            TransactionTracker transactions = new TransactionTracker();
            rebuildProducers(dir, history, segments, logEnd, stats, producers, transactions);
            return new Result(segments, logStart, logEnd, producers, transactions, stats.truncated,
                    clean && stats.scanned == 0, stats.scanned, stats.scanFrom, stats.rebuilt, stats.replayed);
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

    /**
     * The segment files whose offsets count under {@code history}, by base offset: this epoch's, and those of earlier
     * epochs based below the next epoch's start (a fenced writer's late roll does not count). Of two at one base the
     * later epoch's counts.
     */
    static List<SegmentFile> countingFiles(PartitionDirectory dir, EpochHistory history) throws IOException {
        List<SegmentFile> files = new ArrayList<>();
        for (SegmentFile f : dir.segmentFiles()) {
            if (f.epoch() < dir.epoch() && !history.counts(f.epoch(), f.baseOffset())) {
                continue;
            }
            if (!files.isEmpty() && files.get(files.size() - 1).baseOffset() == f.baseOffset()) {
                files.remove(files.size() - 1);
            }
            files.add(f);
        }
        return files;
    }

    /**
     * Bounds an earlier epoch's segment at {@code endOffset} (the next epoch's start): its indexes are cut there in
     * memory, checked, rebuilt in memory if they do not hold, and its size is the position of the first batch at or
     * above {@code endOffset} (found from the last index entry by batch headers; the bytes before were validated when
     * the next epoch took over). Nothing of the file is written.
     */
    private static void recoverBounded(Segment seg, long endOffset, long nextBase, Stats stats) throws IOException {
        long fileSize = seg.channel().size();
        long relEnd = endOffset - seg.baseOffset();
        SegmentIndex index = seg.index();
        TimeIndex time = seg.timeIndex();
        index.truncateTo(countBelowRelativeOffset(index, relEnd));
        time.truncateTo(time.countBelow(relEnd));
        boolean ok = (index.count() == 0 || offsetIndexIsConsistent(seg, fileSize)) && time.isConsistent(relEnd);
        if (!ok) {
            stats.rebuilt++;
            index.reset();
            time.truncateTo(0);
        } else if (time.count() > 0) {
            int n = time.count();
            seg.restoreTimestamps(time.timestampAt(n - 1), seg.baseOffset() + time.relativeOffsetAt(n - 1));
        }
        int entries = index.count();
        long pos = entries == 0 ? 0 : Integer.toUnsignedLong(index.positionAt(entries - 1));
        // offsets only grow (compaction leaves gaps, never steps back): a header that steps back is no batch
        long next = seg.baseOffset() + (entries == 0 ? 0 : index.relativeOffsetAt(entries - 1));
        seg.resumeIndexing(pos);
        while (pos < fileSize) {
            BatchHeader h = seg.readHeader(pos, fileSize);
            if (h == null || h.sizeInBytes() < RecordBatches.HEADER_SIZE || h.sizeInBytes() > fileSize - pos
                    || h.baseOffset() < next || h.nextOffset() > endOffset) {
                break;
            }
            seg.indexBatch(pos, h.baseOffset(), h.sizeInBytes(), h.maxTimestamp(), IoHooks.NONE);
            pos += h.sizeInBytes();
            next = h.nextOffset();
        }
        seg.publish(pos, nextBase, -1);
        if (seg.maxTimestamp() >= 0) {
            time.maybeAppend(seg.maxTimestamp(), Math.toIntExact(seg.offsetOfMaxTimestamp() - seg.baseOffset()), IoHooks.NONE);
        }
        seg.restore(pos, nextBase);
        index.close();
        time.close();
    }

    private static int countBelowRelativeOffset(SegmentIndex index, long relativeOffset) {
        int n = index.count();
        int i = 0;
        while (i < n && index.relativeOffsetAt(i) < relativeOffset) {
            i++;
        }
        return i;
    }

    /**
     * A roll creates the new segment before it seals the old one: a crash in between leaves an empty last
     * file that the checkpoint does not name. Drop it, so the segment that was active is recovered as such.
     * Only this epoch's files are deleted.
     */
    private static void dropTrailingEmptySegments(PartitionDirectory dir, List<SegmentFile> files,
                                                  Optional<RecoveryCheckpoint> cp) throws IOException {
        boolean dropped = false;
        while (files.size() > 1) {
            SegmentFile last = files.get(files.size() - 1);
            if (last.epoch() != dir.epoch()) {
                break; // an earlier writer's: never deleted here; its bound decides what counts
            }
            if (Files.size(dir.logFile(last)) != 0 || (cp.isPresent() && cp.get().segment() >= last.baseOffset())) {
                break;
            }
            dir.deleteSegmentFiles(last);
            files.remove(files.size() - 1);
            dropped = true;
        }
        if (dropped) {
            dir.fsync();
        }
    }

    /** Opens the indexes of a closed segment just rewritten by compaction (rebuilt from its batches). */
    static void reopenClosed(Segment seg, long nextBase) throws IOException {
        recoverClosed(seg, nextBase, new Stats());
    }

    private static void recoverClosed(Segment seg, long nextBase, Stats stats) throws IOException {
        long size = seg.channel().size();
        seg.restore(size, nextBase);
        TimeIndex time = seg.timeIndex();
        boolean ok = offsetIndexIsConsistent(seg, size) && time.isConsistent(nextBase - seg.baseOffset())
                && (time.count() > 0 || size == 0);
        if (ok) {
            int n = time.count();
            if (n > 0) {
                seg.restoreTimestamps(time.timestampAt(n - 1), seg.baseOffset() + time.relativeOffsetAt(n - 1));
            }
        } else {
            LOG.atInfo().addKeyValue("file", seg.index().path()).setMessage("rebuilding a missing or inconsistent index").log();
            stats.rebuilt++;
            seg.index().reset();
            time.truncateTo(0);
            long end = indexHeaders(seg, 0, size);
            seg.publish(end, nextBase, -1);
            if (seg.maxTimestamp() >= 0) {
                time.maybeAppend(seg.maxTimestamp(), Math.toIntExact(seg.offsetOfMaxTimestamp() - seg.baseOffset()), IoHooks.NONE);
            }
            seg.flushIndexes();
            seg.restore(size, nextBase);
        }
        seg.index().close();
        time.close();
    }

    /** Indexes the batch headers from {@code from} to {@code end} (no CRC check); returns where the walk stopped. */
    private static long indexHeaders(Segment seg, long from, long end) throws IOException {
        long pos = from;
        while (pos < end) {
            BatchHeader h = seg.readHeader(pos, end);
            if (h == null || h.sizeInBytes() < RecordBatches.HEADER_SIZE || h.sizeInBytes() > end - pos) {
                break;
            }
            seg.indexBatch(pos, h.baseOffset(), h.sizeInBytes(), h.maxTimestamp(), IoHooks.NONE);
            pos += h.sizeInBytes();
        }
        return pos;
    }

    private static void recoverLast(PartitionDirectory dir, Segment seg, Optional<RecoveryCheckpoint> cp, boolean clean, long nowMs, Stats stats)
            throws IOException {
        long fileSize = seg.channel().size();
        long from = 0;
        long expected = seg.baseOffset();
        if (cp.isPresent() && usePrefix(seg, cp.get(), fileSize, stats)) {
            from = cp.get().position();
            expected = cp.get().highWatermark();
            seg.restoreTimestamps(cp.get().maxTimestamp(), cp.get().offsetOfMaxTimestamp());
        } else {
            seg.index().reset();
            seg.timeIndex().truncateTo(0);
        }
        long rollBase = rollBase(seg, fileSize, nowMs);
        if (clean && from == fileSize) {
            seg.resumeIndexing(from);
            seg.publish(from, expected, rollBase);
            return;
        }
        seg.resumeIndexing(from);
        stats.scanFrom = from;
        long pos = from;
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
            seg.indexBatch(pos, h.baseOffset(), h.sizeInBytes(), h.maxTimestamp(), IoHooks.NONE);
            pos += h.sizeInBytes();
            expected = h.nextOffset();
        }
        stats.scanned = pos - from;
        stats.truncated = fileSize - pos;
        if (stats.truncated > 0) {
            LOG.atWarn().addKeyValue("file", seg.logPath()).addKeyValue("position", pos)
                    .addKeyValue("bytesDropped", stats.truncated).addKeyValue("reason", reason)
                    .setMessage("truncating an unreadable log tail left by a crash").log();
            seg.channel().truncate(pos);
        }
        dir.sync(seg.channel(), seg.logPath());
        seg.flushIndexes();
        seg.publish(pos, expected, rollBase);
    }

    /** {@code segment.ms} counts from the first batch's timestamp, as Kafka does; else from now. */
    private static long rollBase(Segment seg, long fileSize, long nowMs) throws IOException {
        BatchHeader first = seg.readHeader(0, fileSize);
        return first != null && first.maxTimestamp() >= 0 ? Math.min(first.maxTimestamp(), nowMs) : nowMs;
    }

    /**
     * Whether the checkpoint can be trusted for the last segment: its position is in the file and on the
     * batch boundary where offset {@code highWatermark} starts. Index entries at or after the position are
     * dropped (they may not be durable); the rest is checked and rebuilt from headers if it does not hold.
     */
    private static boolean usePrefix(Segment seg, RecoveryCheckpoint cp, long fileSize, Stats stats) throws IOException {
        if (cp.position() > fileSize || cp.position() < 0 || cp.highWatermark() < seg.baseOffset()) {
            return false;
        }
        long relEnd = cp.highWatermark() - seg.baseOffset();
        SegmentIndex index = seg.index();
        TimeIndex time = seg.timeIndex();
        index.truncateTo(index.countBelowPosition(cp.position()));
        time.truncateTo(time.countBelow(relEnd));
        boolean indexesHold = offsetIndexIsConsistent(seg, cp.position()) && time.isConsistent(relEnd)
                && time.lastTimestamp() <= cp.maxTimestamp();
        if (indexesHold && landsOn(seg, index.floorPosition(relEnd), cp)) {
            return true;
        }
        stats.rebuilt++;
        index.reset();
        time.truncateTo(0);
        long end = indexHeaders(seg, 0, cp.position());
        return end == cp.position() && landsOn(seg, index.floorPosition(relEnd), cp);
    }

    /** Walks headers from {@code from}: true if they end exactly at the checkpoint with its next offset. */
    static boolean landsOn(Segment seg, long from, RecoveryCheckpoint cp) throws IOException {
        long pos = from;
        long next = pos == 0 ? seg.baseOffset() : -1;
        while (pos < cp.position()) {
            BatchHeader h = seg.readHeader(pos, cp.position());
            if (h == null || h.sizeInBytes() < RecordBatches.HEADER_SIZE) {
                return false;
            }
            pos += h.sizeInBytes();
            next = h.nextOffset();
        }
        return pos == cp.position() && next == cp.highWatermark();
    }

    /**
     * Loads the producer snapshot and replays batch headers from its offset (from the first segment without
     * one) into the producer windows and the transaction state; a control batch is read whole for its type.
     */
    private static void rebuildProducers(PartitionDirectory dir, EpochHistory history,
                                         ConcurrentSkipListMap<Long, Segment> segments, long logEnd, Stats stats,
                                         ProducerWindows producers, TransactionTracker transactions) throws IOException {
        long from = segments.firstKey();
        Optional<ProducerSnapshot.Loaded> snapshot = Optional.empty();
        for (Map.Entry<Integer, byte[]> candidate : dir.readProducerSnapshots()) {
            // an earlier writer's snapshot counts only up to its epoch's end: a fenced writer's later one holds
            // producer state of batches that are never served
            long limit = Math.min(logEnd, history.nextStart(candidate.getKey()));
            Optional<ProducerSnapshot.Loaded> loaded = ProducerSnapshot.decode(candidate.getValue())
                    .filter(l -> l.offset() <= limit);
            if (loaded.isPresent()) {
                snapshot = loaded;
                break;
            }
        }
        if (snapshot.isPresent()) {
            snapshot.get().producers().forEach(producers::restore);
            transactions.restore(snapshot.get().openTransactions(), snapshot.get().abortedTransactions());
            from = Math.max(from, snapshot.get().offset());
        }
        Map.Entry<Long, Segment> entry = segments.floorEntry(from);
        while (entry != null && from < logEnd) {
            Segment seg = entry.getValue();
            long pos = seg.locate(from);
            long end = seg.size();
            while (pos >= 0 && pos < end) {
                BatchHeader h = seg.readHeader(pos, end);
                if (h == null) {
                    break;
                }
                if (h.baseOffset() >= from) {
                    ByteBuffer batch = h.isControl() ? seg.read(pos, h.sizeInBytes()) : null;
                    producers.replay(h, batch);
                    if (TransactionTracker.concerns(h)) {
                        transactions.replay(h, batch);
                    }
                    stats.replayed++;
                }
                pos += h.sizeInBytes();
            }
            entry = segments.higherEntry(seg.baseOffset());
        }
    }

    private static boolean offsetIndexIsConsistent(Segment seg, long size) throws IOException {
        SegmentIndex index = seg.index();
        int n = index.count();
        if (n == 0) {
            return size == 0;
        }
        // Compaction may have dropped a segment's first batches: the first entry is at position 0, not offset 0.
        if (index.relativeOffsetAt(0) < 0 || index.positionAt(0) != 0) {
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
