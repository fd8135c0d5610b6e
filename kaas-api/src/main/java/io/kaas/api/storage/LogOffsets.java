package io.kaas.api.storage;

/**
 * A consistent snapshot of a partition's offsets. {@code logStartOffset <= lastStableOffset <= highWatermark}.
 *
 * @param logStartOffset   the first offset still readable
 * @param highWatermark    one past the last offset readable by read_uncommitted consumers
 * @param lastStableOffset one past the last offset readable by read_committed consumers
 */
public record LogOffsets(long logStartOffset, long highWatermark, long lastStableOffset) {
}
