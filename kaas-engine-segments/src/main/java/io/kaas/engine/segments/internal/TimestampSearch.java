package io.kaas.engine.segments.internal;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.storage.TimestampOffset;
import io.kaas.records.RecordTimestamps;
import java.io.IOException;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;

/**
 * Timestamp lookups (ListOffsets), as Kafka resolves them. Segments are chosen by their largest timestamp
 * (held in memory); inside a segment the {@link TimeIndex} gives the batch to start from, the offset index
 * its position, and batch headers are walked from there, so no lookup scans the log from its start. The
 * answer is exact, as Kafka's: the records of the batch found are walked ({@link RecordTimestamps}),
 * decompressed first if the batch is compressed; in a LogAppendTime batch every record carries the batch
 * time. {@code MAX_TIMESTAMP} answers the first record carrying the largest timestamp of the readable log
 * (Kafka 3.8+: {@code RecordBatch.offsetOfMaxTimestamp}), the batch's first readable offset for a
 * LogAppendTime batch.
 */
final class TimestampSearch {
    private final NavigableMap<Long, Segment> segments;

    TimestampSearch(NavigableMap<Long, Segment> segments) {
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
        return RecordTimestamps.first(seg.read(h.position(), h.sizeInBytes()), h, logStart, target, equal);
    }
}
