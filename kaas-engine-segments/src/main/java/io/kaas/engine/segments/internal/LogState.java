package io.kaas.engine.segments.internal;

import io.kaas.api.storage.LogOffsets;

/**
 * The immutable snapshot a partition publishes after every change, read lock-free. Everything below
 * {@code logEndOffset} has been written and is readable; {@code active} is the segment that receives
 * appends (older segments were fsynced when they were rolled).
 */
record LogState(long logStartOffset, long logEndOffset, Segment active, LogOffsets offsets) {

    static LogState of(long logStartOffset, long logEndOffset, Segment active) {
        // No replication and no transactions yet: HW = LSO = log end once written.
        return new LogState(logStartOffset, logEndOffset, active,
                new LogOffsets(logStartOffset, logEndOffset, logEndOffset));
    }

    LogState withLogStart(long newLogStart) {
        return of(newLogStart, logEndOffset, active);
    }
}
