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
 * Timestamp lookups (ListOffsets), as Kafka resolves them. Segments are chosen by their largest timestamp
 * (held in memory); inside a segment the {@link TimeIndex} gives the batch to start from, the offset index
 * its position, and batch headers are walked from there, so no lookup scans the log from its start. The
 * answer is exact for uncompressed CreateTime batches (their records are parsed) and for LogAppendTime
 * batches (every record carries the batch time). For a compressed CreateTime batch the engine does not
 * decompress: it answers the batch's first readable offset with the batch's max timestamp.
 */
final class TimestampSearch {
    private final ConcurrentSkipListMap<Long, Segment> segments;

    TimestampSearch(ConcurrentSkipListMap<Long, Segment> segments) {
        this.segments = segments;
    }

    Optional<TimestampOffset> offsetForTimestamp(LogState state, long target) throws IOException {
        for (Segment seg : readable(state)) {
            if (seg.maxTimestamp() < target) {
                continue;
            }
            int rel = seg.timeIndex().floorRelativeOffset(target);
            long from = Math.max(seg.baseOffset() + Math.max(rel, 0), state.logStartOffset());
            long pos = seg.locate(from);
            long end = seg.size();
            while (pos >= 0 && pos < end) {
                BatchHeader h = seg.readHeader(pos, end);
                if (h == null || h.baseOffset() >= state.logEndOffset()) {
                    return Optional.empty();
                }
                if (h.maxTimestamp() >= target) {
                    TimestampOffset found = locateInBatch(seg, h, state.logStartOffset(), target, false);
                    if (found != null) {
                        return Optional.of(found);
                    }
                }
                pos += h.sizeInBytes();
            }
        }
        return Optional.empty();
    }

    Optional<TimestampOffset> maxTimestamp(LogState state) throws IOException {
        Segment bestSeg = null;
        BatchHeader best = null;
        for (Segment seg : readable(state)) {
            BatchHeader h = maxBatch(seg, state);
            if (h != null && (best == null || h.maxTimestamp() > best.maxTimestamp())) {
                best = h;
                bestSeg = seg;
            }
        }
        if (best == null) {
            return Optional.empty();
        }
        BatchHeader h = best;
        TimestampOffset exact = locateInBatch(bestSeg, h, state.logStartOffset(), h.maxTimestamp(), true);
        return Optional.of(exact != null ? exact
                : new TimestampOffset(h.maxTimestamp(), Math.max(h.baseOffset(), state.logStartOffset()), h.partitionLeaderEpoch()));
    }

    /** Segments holding offsets in [log start, log end), ascending. */
    private Iterable<Segment> readable(LogState state) {
        if (state.logStartOffset() >= state.logEndOffset()) {
            return java.util.List.of();
        }
        Long first = segments.floorKey(state.logStartOffset());
        return segments.subMap(first == null ? segments.firstKey() : first, true, state.logEndOffset(), false).values();
    }

    /**
     * The first batch with the segment's largest timestamp among the readable ones: from memory, unless the
     * log start or the state's end cuts through the segment, where its headers are walked.
     */
    private static BatchHeader maxBatch(Segment seg, LogState state) throws IOException {
        long at = seg.offsetOfMaxTimestamp();
        boolean inside = at >= state.logStartOffset() && at < state.logEndOffset();
        if (seg.maxTimestamp() >= 0 && inside) {
            long pos = seg.locate(at);
            return pos < 0 ? null : seg.readHeader(pos, seg.size());
        }
        BatchHeader best = null;
        long pos = seg.locate(Math.max(seg.baseOffset(), state.logStartOffset()));
        long end = seg.size();
        while (pos >= 0 && pos < end) {
            BatchHeader h = seg.readHeader(pos, end);
            if (h == null || h.baseOffset() >= state.logEndOffset()) {
                break;
            }
            if (best == null || h.maxTimestamp() > best.maxTimestamp()) {
                best = h;
            }
            pos += h.sizeInBytes();
        }
        return best;
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
}
