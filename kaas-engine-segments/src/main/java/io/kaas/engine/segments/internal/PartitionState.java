package io.kaas.engine.segments.internal;

import java.util.Collections;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The mutable state of one segment partition behind a narrow interface: the published {@link LogState}
 * and the map of segments by base offset. Both are read lock-free (a volatile snapshot, a concurrent
 * map seen through a read-only view); every change is one of the methods below, named for what
 * happened, and runs under the partition lock. Nothing else writes either.
 */
final class PartitionState {
    private final ConcurrentSkipListMap<Long, Segment> segments;
    private final NavigableMap<Long, Segment> view;
    private volatile LogState current;

    /** The state recovery found: {@code segments} is non-empty, its last entry the active segment. */
    PartitionState(ConcurrentSkipListMap<Long, Segment> segments, long logStartOffset, long logEndOffset,
                   long lastStableOffset) {
        this.segments = segments;
        this.view = Collections.unmodifiableNavigableMap(segments);
        this.current = LogState.of(logStartOffset, logEndOffset, segments.lastEntry().getValue(), lastStableOffset);
    }

    /** The last published state. */
    LogState current() {
        return current;
    }

    /** Every segment by base offset, read-only; changes show through. */
    NavigableMap<Long, Segment> segments() {
        return view;
    }

    /** Batches were written to {@code active} up to {@code logEndOffset}: publishes them and the new last stable offset. */
    void appended(long logEndOffset, Segment active, long lastStableOffset) {
        current = LogState.of(current.logStartOffset(), logEndOffset, active, lastStableOffset);
    }

    /** {@code fresh}, starting at the log end, is the new active segment. */
    void rolled(Segment fresh) {
        segments.put(fresh.baseOffset(), fresh);
        current = LogState.of(current.logStartOffset(), fresh.baseOffset(), fresh, current.offsets().lastStableOffset());
    }

    /** The log start moved forward (DeleteRecords or retention); the caller persisted it first. */
    void logStartAdvanced(long logStartOffset) {
        current = current.withLogStart(logStartOffset);
    }

    /** A compacted copy replaces a closed segment with the same base offset. */
    void replaced(Segment fresh) {
        segments.put(fresh.baseOffset(), fresh);
    }

    /** A closed segment wholly below the log start left the log. */
    void removed(Segment segment) {
        segments.remove(segment.baseOffset(), segment);
    }
}
