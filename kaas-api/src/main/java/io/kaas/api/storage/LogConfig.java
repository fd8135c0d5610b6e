package io.kaas.api.storage;

/**
 * Per-partition log settings, resolved by the broker from the topic's configs over the broker
 * defaults (Kafka's names in brackets). -1 means unlimited where Kafka allows it.
 *
 * @param segmentBytes     roll the active segment past this size ({@code segment.bytes})
 * @param segmentMs        roll a segment older than this ({@code segment.ms})
 * @param retentionMs      delete closed segments older than this ({@code retention.ms}), -1 unlimited
 * @param retentionBytes   delete closed segments while the log exceeds this ({@code retention.bytes}), -1 unlimited
 * @param maxMessageBytes  largest batch accepted ({@code max.message.bytes}); larger answers MESSAGE_TOO_LARGE
 * @param flushMessages    fsync after this many messages for non-durable appends ({@code flush.messages});
 *                         durable appends are always fsynced before they complete
 * @param logAppendTime    stamp batches with the broker's time ({@code message.timestamp.type=LogAppendTime})
 * @param compact          {@code cleanup.policy} includes compact
 */
public record LogConfig(long segmentBytes, long segmentMs, long retentionMs, long retentionBytes,
                        int maxMessageBytes, long flushMessages, boolean logAppendTime, boolean compact) {

    /** Kafka's defaults. */
    public static LogConfig defaults() {
        return new LogConfig(1024L * 1024 * 1024, 7L * 24 * 3600 * 1000, 7L * 24 * 3600 * 1000, -1,
                1024 * 1024 + 12, 1, false, false);
    }
}
