package io.kaas.plugin.tck;

/**
 * Optional parts of the storage-engine contract. An engine states what it supports by overriding
 * {@link StorageEngineTck#supports(EngineCapability)}; the TCK then checks that the declaration is
 * truthful both ways: a supported capability works, an unsupported one is refused with
 * {@link io.kaas.api.storage.UnsupportedFeatureException} (except where a capability has no call
 * that could refuse it, as stated on the constant).
 */
public enum EngineCapability {
    /**
     * Reads hand back {@link io.kaas.api.storage.FileSlice}s the broker can send with zero copy.
     * Declared: a non-empty read returns at least one file slice. Not declared: only buffer slices.
     */
    FILE_SLICES(false),
    /**
     * {@code offsetForTimestamp} and {@code maxTimestamp}. Not declared: both throw
     * {@code UnsupportedFeatureException}.
     */
    TIMESTAMP_INDEX(true),
    /**
     * Idempotent producers (producer id / epoch / sequence, a window of 5 batches). Not declared:
     * appending a batch that carries a producer id fails with {@code UnsupportedFeatureException}.
     */
    IDEMPOTENCE(true),
    /**
     * {@code message.timestamp.type=LogAppendTime}. Not declared: opening a partition with
     * {@code LogConfig.logAppendTime()} or appending to it fails with {@code UnsupportedFeatureException}.
     */
    LOG_APPEND_TIME(true),
    /**
     * Data survives closing and reopening the engine over the same data directory. Not declared
     * (an in-memory engine): the reopen tests are skipped, as there is no call that could refuse.
     */
    PERSISTENCE(true),
    /**
     * {@code cleanup.policy=compact}: the engine keeps the latest record per key and refuses keyless records
     * on a compacted partition. Not declared: {@code StorageEngine.checkConfig} refuses a compact config with
     * {@link io.kaas.api.storage.InvalidConfigException}, so the broker never creates such a topic.
     */
    COMPACTION(false);

    private final boolean requiredByDefault;

    EngineCapability(boolean requiredByDefault) {
        this.requiredByDefault = requiredByDefault;
    }

    /** Whether {@link StorageEngineTck#supports} assumes the capability unless the engine says otherwise. */
    public boolean requiredByDefault() {
        return requiredByDefault;
    }
}
