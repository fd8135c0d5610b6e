package io.kaas.engine.segments.internal;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.CorruptBatchException;
import io.kaas.api.record.RecordBatches;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first step of a takeover ({@link SegmentPartitionLog#open} at an epoch above the last in the history): finds
 * where the data of the earlier epochs' writers ends, which is where the new epoch starts. Reads only.
 */
final class TakeoverScan {
    private static final Logger LOG = LoggerFactory.getLogger(TakeoverScan.class);

    /** Where a new epoch starts, and how many bytes of the earlier writer's last segment were validated to find it. */
    record Takeover(long startOffset, long scannedBytes) {
    }

    private TakeoverScan() {
    }

    /**
     * The takeover scan: where the data the writers before {@code dir.epoch()} left ends, which is where this epoch
     * starts. The last segment file that counts is validated (CRC32C, continuous offsets) from its writer's recovery
     * checkpoint on, read-only: a torn or late tail is not cut but left out (the new epoch's start bounds it). Then
     * that file is fsynced, so the data the new epoch builds on is durable. Nothing is written.
     */
    static Takeover predecessorsEnd(PartitionDirectory dir, EpochHistory history) throws IOException {
        List<SegmentFile> files = LogRecovery.countingFiles(dir, history);
        long manifestStart = dir.readManifest().map(Manifest::logStartOffset).orElse(0L);
        if (files.isEmpty()) {
            return new Takeover(Math.max(0L, manifestStart), 0);
        }
        SegmentFile newest = files.get(files.size() - 1);
        long bound = history.nextStart(newest.epoch());
        if (bound != Long.MAX_VALUE) {
            return new Takeover(Math.max(bound, manifestStart), 0); // the last writer took over and wrote no segment
        }
        // A roll creates the new segment before it seals the old one: an empty last file its writer's checkpoint does
        // not name yet may follow a segment whose tail is not durable or not visible here yet: validate that one.
        SegmentFile lastFile = newest;
        if (files.size() > 1 && Files.size(dir.logFile(newest)) == 0 && dir.readCheckpoint(newest.epoch())
                .map(c -> c.segment() != newest.baseOffset()).orElse(true)) {
            lastFile = files.get(files.size() - 2);
        }
        SegmentFile scanned = lastFile;
        try (Segment seg = Segment.open(dir, scanned)) {
            long fileSize = seg.channel().size();
            long pos = 0;
            long expected = seg.baseOffset();
            Optional<RecoveryCheckpoint> cp = dir.readCheckpoint(scanned.epoch())
                    .filter(c -> c.segment() == scanned.baseOffset() && c.position() <= fileSize && c.position() >= 0
                            && c.highWatermark() >= scanned.baseOffset());
            // trust the checkpoint if batch headers walk onto it: from the last index entry below it, else from 0
            if (cp.isPresent() && (LogRecovery.landsOn(seg, indexedPositionBelow(seg, cp.get().position()), cp.get())
                    || LogRecovery.landsOn(seg, 0, cp.get()))) {
                pos = cp.get().position();
                expected = cp.get().highWatermark();
            }
            long from = pos;
            while (pos < fileSize) {
                BatchHeader announced = seg.readHeader(pos, fileSize);
                if (announced == null || announced.sizeInBytes() < RecordBatches.HEADER_SIZE
                        || announced.sizeInBytes() > fileSize - pos) {
                    break;
                }
                BatchHeader h;
                try {
                    h = RecordBatches.validateOne(seg.read(pos, announced.sizeInBytes()), 0, pos);
                } catch (CorruptBatchException e) {
                    break;
                }
                if (h.baseOffset() != expected) {
                    break;
                }
                pos += h.sizeInBytes();
                expected = h.nextOffset();
            }
            dir.sync(seg.channel(), seg.logPath());
            LOG.atInfo().addKeyValue("file", seg.logPath()).addKeyValue("scanFrom", from).addKeyValue("scannedBytes", pos - from)
                    .addKeyValue("ignoredBytes", fileSize - pos).addKeyValue("endOffset", expected)
                    .log("The data of the earlier leader epochs in {} ends at offset {} (validated {} bytes from position {}, "
                            + "{} bytes after it left out)", seg.logPath(), expected, pos - from, from, fileSize - pos);
            return new Takeover(Math.max(expected, manifestStart), pos - from);
        }
    }

    /** The position of the last index entry below {@code position}, or 0. */
    private static long indexedPositionBelow(Segment seg, long position) {
        int n = seg.index().countBelowPosition(position);
        return n == 0 ? 0 : Integer.toUnsignedLong(seg.index().positionAt(n - 1));
    }
}
