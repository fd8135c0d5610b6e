package io.kaas.api.storage;

/**
 * What a storage engine measures, told to the broker (which shows it as metrics): fsyncs, group-commit sizes, fsync
 * stalls, recovery times and the batches it had to decompress or rewrite. Every method is called on the engine's own
 * threads, must be cheap and thread-safe, and must never block or throw; the defaults ignore the call, so an engine
 * reports only what it measures. Plugin engines get the same object through {@link EngineContext#stats()}.
 */
public interface EngineStats {

    /** Ignores everything. */
    EngineStats NONE = new EngineStats() { };

    /** Why a batch was decompressed or rewritten: a compacted topic's records checked for keys. */
    String COMPACTED_KEY_VALIDATION = "compacted_key_validation";
    /** Why a batch was rewritten: a LogAppendTime topic's batch given the broker's time (header and CRC). */
    String LOG_APPEND_TIME = "log_append_time";

    /**
     * One fsync of a partition's log took {@code nanos} and made {@code batches} appended batches durable;
     * {@code partition} is null when one sync covers every partition (an engine with one shared write-ahead log).
     */
    default void flushed(PartitionKey partition, long nanos, int batches) {
    }

    /** An fsync of {@code partition} has not completed after {@code nanos} (the engine takes it offline). */
    default void fsyncStalled(PartitionKey partition, long nanos) {
    }

    /** {@code partition} was opened (recovered) in {@code nanos}, scanning {@code scannedBytes}. */
    default void recovered(PartitionKey partition, long nanos, long scannedBytes) {
    }

    /** The engine decompressed {@code batches} batches to look at their records, for {@code reason}. */
    default void batchesDecompressed(String reason, int batches) {
    }

    /** The engine rewrote {@code batches} batches (bytes of the producer's batch changed), for {@code reason}. */
    default void batchesRewritten(String reason, int batches) {
    }
}
