package io.kaas.broker.topic;

import io.kaas.api.storage.LogOffsets;

/**
 * The leader epochs of a partition as this broker knows them, and Kafka's answer to "where does epoch e end"
 * ({@code LeaderEpochFileCache.endOffsetFor}). A single broker leads every partition in one epoch,
 * {@link #CURRENT} (what Metadata answers), from the partition's log start: the storage SPI has no epoch history
 * to ask, so the epochs are derived from {@link LogOffsets} by this rule —
 * <ul>
 *   <li>the current epoch ends at the log end offset (the high watermark: one broker, so every appended record is
 *       replicated);</li>
 *   <li>an epoch above it, or {@link #UNDEFINED} (-1), is unknown: epoch -1, offset -1;</li>
 *   <li>an epoch below it (below -1, as no lower epoch existed) ends where the next epoch starts: the current
 *       epoch's start, the log start offset; Kafka answers the requested epoch itself when no epoch is at or below
 *       it, and so does this.</li>
 * </ul>
 */
public final class LeaderEpochs {
    /** The leader epoch of every partition: one broker, never re-elected. */
    public static final int CURRENT = 0;
    /** Kafka's UNDEFINED_EPOCH and UNDEFINED_EPOCH_OFFSET. */
    public static final int UNDEFINED = -1;

    /**
     * An epoch and the offset it ends at (exclusive).
     *
     * @param epoch     the epoch the offset belongs to, or {@link #UNDEFINED}
     * @param endOffset the first offset after it, or {@link #UNDEFINED}
     */
    public record EpochEnd(int epoch, long endOffset) {
        static final EpochEnd UNKNOWN = new EpochEnd(UNDEFINED, UNDEFINED);
    }

    private LeaderEpochs() {
    }

    /** Where {@code requested} ends in a partition at {@code offsets}. */
    public static EpochEnd endOffsetFor(int requested, LogOffsets offsets) {
        if (requested == UNDEFINED || requested > CURRENT) {
            return EpochEnd.UNKNOWN;
        }
        if (requested == CURRENT) {
            return new EpochEnd(CURRENT, offsets.highWatermark());
        }
        return new EpochEnd(requested, offsets.logStartOffset());
    }
}
