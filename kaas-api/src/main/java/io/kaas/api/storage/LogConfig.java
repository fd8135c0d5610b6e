package io.kaas.api.storage;

/**
 * Per-partition log settings, resolved by the broker from the topic's configs over the broker
 * defaults (Kafka's names in brackets). -1 means unlimited where Kafka allows it.
 *
 * @param segmentBytes           roll the active segment past this size ({@code segment.bytes})
 * @param segmentMs              roll a segment older than this ({@code segment.ms})
 * @param retentionMs            delete closed segments older than this ({@code retention.ms}), -1 unlimited
 * @param retentionBytes         delete closed segments while the log exceeds this ({@code retention.bytes}), -1 unlimited
 * @param maxMessageBytes        largest batch accepted ({@code max.message.bytes}); larger answers MESSAGE_TOO_LARGE
 * @param flushMessages          fsync after this many messages for non-durable appends ({@code flush.messages});
 *                               durable appends are always fsynced before they complete
 * @param logAppendTime          stamp batches with the broker's time ({@code message.timestamp.type=LogAppendTime})
 * @param compact                {@code cleanup.policy} includes compact: the engine keeps the latest record per
 *                               key and refuses keyless records ({@link InvalidRecordException}); an engine that
 *                               does not compact refuses this in {@link StorageEngine#checkConfig}
 * @param delete                 {@code cleanup.policy} includes delete: {@code retention.ms} and
 *                               {@code retention.bytes} apply (a compact-only topic keeps its segments)
 * @param deleteRetentionMs      how long a compacted-away key's tombstone stays readable ({@code delete.retention.ms})
 * @param minCompactionLagMs     a record stays uncompacted at least this long ({@code min.compaction.lag.ms})
 * @param maxCompactionLagMs     a record becomes eligible for compaction, whatever the dirty ratio, after this long
 *                               ({@code max.compaction.lag.ms})
 * @param minCleanableDirtyRatio compact when the uncompacted share of the log reaches this
 *                               ({@code min.cleanable.dirty.ratio}, 0..1)
 */
public record LogConfig(long segmentBytes, long segmentMs, long retentionMs, long retentionBytes,
                        int maxMessageBytes, long flushMessages, boolean logAppendTime, boolean compact,
                        boolean delete, long deleteRetentionMs, long minCompactionLagMs, long maxCompactionLagMs,
                        double minCleanableDirtyRatio) {

    /** Kafka's default {@code delete.retention.ms}: one day. */
    public static final long DEFAULT_DELETE_RETENTION_MS = 24L * 3600 * 1000;
    /** Kafka's default {@code min.cleanable.dirty.ratio}. */
    public static final double DEFAULT_MIN_CLEANABLE_DIRTY_RATIO = 0.5;

    /**
     * The settings before compaction had its own components: {@code cleanup.policy} is {@code compact} if
     * {@code compact}, else {@code delete}; the compaction settings take Kafka's defaults.
     */
    public LogConfig(long segmentBytes, long segmentMs, long retentionMs, long retentionBytes, int maxMessageBytes,
                     long flushMessages, boolean logAppendTime, boolean compact) {
        this(segmentBytes, segmentMs, retentionMs, retentionBytes, maxMessageBytes, flushMessages, logAppendTime,
                compact, !compact, DEFAULT_DELETE_RETENTION_MS, 0L, Long.MAX_VALUE, DEFAULT_MIN_CLEANABLE_DIRTY_RATIO);
    }

    /** Kafka's defaults. */
    public static LogConfig defaults() {
        return new LogConfig(1024L * 1024 * 1024, 7L * 24 * 3600 * 1000, 7L * 24 * 3600 * 1000, -1,
                1024 * 1024 + 12, 1, false, false);
    }

    /** This config with {@code cleanup.policy} and the compaction settings replaced. */
    public LogConfig withCleanup(boolean compact, boolean delete, long deleteRetentionMs, long minCompactionLagMs,
                                 long maxCompactionLagMs, double minCleanableDirtyRatio) {
        return new LogConfig(segmentBytes, segmentMs, retentionMs, retentionBytes, maxMessageBytes, flushMessages,
                logAppendTime, compact, delete, deleteRetentionMs, minCompactionLagMs, maxCompactionLagMs,
                minCleanableDirtyRatio);
    }
}
