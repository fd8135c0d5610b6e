package io.kaas.api.storage;

/**
 * A consistent snapshot of a partition's offsets. {@code logStartOffset <= lastStableOffset <= highWatermark}.
 *
 * @param logStartOffset   the first offset still readable
 * @param highWatermark    one past the last offset readable by read_uncommitted consumers
 * @param lastStableOffset one past the last offset readable by read_committed consumers: the first offset of
 *                         the oldest open transaction on the partition (but not below the log start), or the
 *                         high watermark if none is open
 */
public record LogOffsets(long logStartOffset, long highWatermark, long lastStableOffset) {
}
