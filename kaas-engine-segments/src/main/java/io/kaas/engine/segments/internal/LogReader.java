package io.kaas.engine.segments.internal;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.storage.FileSlice;
import io.kaas.api.storage.LogSlice;
import io.kaas.api.storage.OffsetOutOfRangeException;
import io.kaas.api.storage.ReadResult;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;

/**
 * Serves {@code PartitionLog.read} without locks and without loading logs into the heap: the
 * segment is found in the skip list, the batch containing the offset through the sparse index and a
 * scan of 61-byte batch headers, and the answer is one {@link FileSlice} of whole batches per segment.
 * Where the read ends is found through the index too, so a 1 MiB read costs a few header reads, not
 * one per batch.
 */
final class LogReader {
    private final NavigableMap<Long, Segment> segments;

    LogReader(NavigableMap<Long, Segment> segments) {
        this.segments = segments;
    }

    ReadResult read(LogState state, long offset, int maxBytes, long maxOffset, boolean minOneBatch) throws IOException {
        if (offset < state.logStartOffset() || offset > state.logEndOffset()) {
            throw outOfRange(state, offset);
        }
        List<LogSlice> slices = new ArrayList<>();
        long limitOffset = Math.min(maxOffset, state.logEndOffset());
        if (offset >= limitOffset) {
            return new ReadResult(slices, state.offsets());
        }
        Map.Entry<Long, Segment> entry = segments.floorEntry(offset);
        if (entry == null) {
            throw outOfRange(state, offset); // its segment was deleted by a concurrent DeleteRecords
        }
        Segment seg = entry.getValue();
        long start = seg.locate(offset);
        if (start < 0) {
            start = seg.size(); // nothing of this segment reaches the offset: continue in the next one
        }
        long total = 0;
        while (seg != null) {
            long end = seg.size();
            long pos = start;
            boolean stop = false;
            // Read after the size, the next offset bounds every batch below it: if it is within the limit,
            // only the byte budget decides where to stop, and the index finds that without reading headers.
            if (seg.nextOffset() <= limitOffset) {
                long budgetEnd = start + (maxBytes - total);
                pos = end <= budgetEnd ? end : seg.batchStartAtOrBelow(budgetEnd, start);
            }
            while (pos < end) {
                BatchHeader h = seg.readHeader(pos, end);
                if (h == null || h.baseOffset() >= limitOffset) {
                    stop = true;
                    break;
                }
                long taken = total + (pos - start);
                boolean firstBatch = taken == 0;
                if (taken + h.sizeInBytes() > maxBytes && !(minOneBatch && firstBatch)) {
                    stop = true;
                    break;
                }
                pos += h.sizeInBytes();
            }
            if (pos > start) {
                slices.add(new FileSlice(seg.channel(), start, Math.toIntExact(pos - start)));
                total += pos - start;
            }
            if (stop || total >= maxBytes) {
                break;
            }
            Map.Entry<Long, Segment> next = segments.higherEntry(seg.baseOffset());
            seg = next == null ? null : next.getValue();
            start = 0;
        }
        return new ReadResult(slices, state.offsets());
    }

    private static OffsetOutOfRangeException outOfRange(LogState state, long offset) {
        return new OffsetOutOfRangeException("offset " + offset + " is outside the log [" + state.logStartOffset()
                + ", " + state.logEndOffset() + "]");
    }
}
