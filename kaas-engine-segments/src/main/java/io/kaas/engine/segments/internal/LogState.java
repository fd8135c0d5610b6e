package io.kaas.engine.segments.internal;

import io.kaas.api.storage.LogOffsets;

/**
 * The immutable snapshot a partition publishes after every change, read lock-free. Everything below
 * {@code logEndOffset} has been written and is readable; {@code active} is the segment that receives
 * appends (older segments were fsynced when they were rolled). The active segment's size and largest
 * timestamp are captured with the log end, so a recovery checkpoint taken from a state is consistent.
 */
record LogState(long logStartOffset, long logEndOffset, Segment active, long activeSize, long activeMaxTimestamp,
                long activeOffsetOfMaxTimestamp, LogOffsets offsets) {

    /**
     * Captures {@code active}'s published size and timestamps: call under the partition lock. No replication:
     * the high watermark is the log end once written; the last stable offset is {@code lastStableOffset}, but
     * never below the log start (as Kafka: an open transaction DeleteRecords cut into is stable from there).
     */
    static LogState of(long logStartOffset, long logEndOffset, Segment active, long lastStableOffset) {
        return new LogState(logStartOffset, logEndOffset, active, active.size(), active.maxTimestamp(),
                active.offsetOfMaxTimestamp(), new LogOffsets(logStartOffset, logEndOffset,
                        Math.max(logStartOffset, lastStableOffset)));
    }

    LogState withLogStart(long newLogStart) {
        return new LogState(newLogStart, logEndOffset, active, activeSize, activeMaxTimestamp, activeOffsetOfMaxTimestamp,
                new LogOffsets(newLogStart, logEndOffset, Math.max(newLogStart, offsets.lastStableOffset())));
    }

    /** The recovery checkpoint this state would make true once the active segment is fsynced. */
    RecoveryCheckpoint checkpoint() {
        return new RecoveryCheckpoint(active.baseOffset(), activeSize, logEndOffset, activeMaxTimestamp,
                activeOffsetOfMaxTimestamp);
    }
}
