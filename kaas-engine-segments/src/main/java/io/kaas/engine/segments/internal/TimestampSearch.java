package io.kaas.engine.segments.internal;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.RecordBatches;
import io.kaas.api.storage.TimestampOffset;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * Timestamp lookups (ListOffsets). First version without a time index: batch headers are scanned from
 * the log start. The answer is exact for uncompressed CreateTime batches (their records are parsed)
 * and for LogAppendTime batches (every record carries the batch time). For a compressed CreateTime
 * batch the engine does not decompress: it answers the batch's first readable offset with the
 * batch's max timestamp.
 */
final class TimestampSearch {
    private final ConcurrentSkipListMap<Long, Segment> segments;

    TimestampSearch(ConcurrentSkipListMap<Long, Segment> segments) {
        this.segments = segments;
    }

    private interface BatchVisitor {
        /** Returns true to stop. */
        boolean visit(Segment segment, BatchHeader header) throws IOException;
    }

    Optional<TimestampOffset> offsetForTimestamp(LogState state, long target) throws IOException {
        TimestampOffset[] found = new TimestampOffset[1];
        forEachBatch(state, (seg, h) -> {
            if (h.maxTimestamp() < target) {
                return false;
            }
            found[0] = locateInBatch(seg, h, state.logStartOffset(), target, false);
            return found[0] != null;
        });
        return Optional.ofNullable(found[0]);
    }

    Optional<TimestampOffset> maxTimestamp(LogState state) throws IOException {
        Segment[] bestSeg = new Segment[1];
        BatchHeader[] best = new BatchHeader[1];
        forEachBatch(state, (seg, h) -> {
            if (best[0] == null || h.maxTimestamp() > best[0].maxTimestamp()) {
                best[0] = h;
                bestSeg[0] = seg;
            }
            return false;
        });
        if (best[0] == null) {
            return Optional.empty();
        }
        BatchHeader h = best[0];
        TimestampOffset exact = locateInBatch(bestSeg[0], h, state.logStartOffset(), h.maxTimestamp(), true);
        return Optional.of(exact != null ? exact
                : new TimestampOffset(h.maxTimestamp(), Math.max(h.baseOffset(), state.logStartOffset()), h.partitionLeaderEpoch()));
    }

    /** The first record at or above the log start whose timestamp is {@code >= target} (or {@code == target}). */
    private static TimestampOffset locateInBatch(Segment seg, BatchHeader h, long logStart, long target, boolean equal)
            throws IOException {
        long firstReadable = Math.max(h.baseOffset(), logStart);
        if (h.isLogAppendTime() || h.compressionCodec() != 0) {
            return new TimestampOffset(h.maxTimestamp(), firstReadable, h.partitionLeaderEpoch());
        }
        ByteBuffer batch = seg.read(h.position(), h.sizeInBytes());
        batch.position(RecordBatches.HEADER_SIZE);
        for (int i = 0; i < h.recordCount() && batch.hasRemaining(); i++) {
            int length = (int) readVarlong(batch);
            int next = batch.position() + length;
            batch.get(); // record attributes
            long timestamp = h.baseTimestamp() + readVarlong(batch);
            long offset = h.baseOffset() + readVarlong(batch);
            boolean matches = equal ? timestamp == target : timestamp >= target;
            if (offset >= logStart && matches) {
                return new TimestampOffset(timestamp, offset, h.partitionLeaderEpoch());
            }
            batch.position(next);
        }
        return null;
    }

    /** Kafka's zig-zag varint / varlong. */
    static long readVarlong(ByteBuffer buf) {
        long raw = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte b = buf.get();
            raw |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return (raw >>> 1) ^ -(raw & 1);
            }
        }
        throw new IllegalArgumentException("varint longer than 10 bytes");
    }

    private void forEachBatch(LogState state, BatchVisitor visitor) throws IOException {
        if (state.logStartOffset() >= state.logEndOffset()) {
            return;
        }
        Map.Entry<Long, Segment> entry = segments.floorEntry(state.logStartOffset());
        if (entry == null) {
            return;
        }
        Segment seg = entry.getValue();
        long pos = seg.locate(state.logStartOffset());
        if (pos < 0) {
            pos = seg.size();
        }
        while (seg != null) {
            long end = seg.size();
            while (pos < end) {
                BatchHeader h = seg.readHeader(pos, end);
                if (h == null || h.baseOffset() >= state.logEndOffset()) {
                    return;
                }
                if (visitor.visit(seg, h)) {
                    return;
                }
                pos += h.sizeInBytes();
            }
            Map.Entry<Long, Segment> next = segments.higherEntry(seg.baseOffset());
            seg = next == null ? null : next.getValue();
            pos = 0;
        }
    }
}
