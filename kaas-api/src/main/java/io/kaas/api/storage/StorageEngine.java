package io.kaas.api.storage;

import java.io.IOException;

/**
 * A running storage engine: a set of partition logs. Thread-safe: any method may be called from
 * any broker thread, never from a network event loop; methods may block on I/O.
 * Closed once, if and only if it was opened successfully.
 */
public interface StorageEngine extends AutoCloseable {

    /**
     * Checks that the engine can serve a partition with {@code config}. The broker calls it before it
     * records a topic's settings (CreateTopics, AlterConfigs and IncrementalAlterConfigs, validate-only
     * requests included), so a topic the engine cannot serve is never created. Cheap, no I/O.
     *
     * <p>An engine that does not compact refuses {@link LogConfig#compact()}: it could neither keep
     * the latest record per key nor honour a compact-only topic's promise to keep its data.
     *
     * @throws InvalidConfigException naming the setting the engine cannot honour
     */
    void checkConfig(LogConfig config);

    /**
     * Opens (and, after a crash, recovers) the log of one partition, creating it empty if absent.
     * Accepts any config, even one {@link #checkConfig} refuses (a topic recorded before the engine was
     * changed): such a partition keeps its data and is served without the refused feature.
     * Returns the same open instance on repeated calls until {@link #deletePartition} or {@link #close}.
     */
    PartitionLog openPartition(PartitionKey key, LogConfig config) throws IOException;

    /** Closes the partition if open and removes all its data. A partition that does not exist is a no-op. */
    void deletePartition(PartitionKey key) throws IOException;

    /**
     * Flushes every partition to stable storage and releases all resources. After a clean close a
     * restart needs no recovery scan.
     */
    @Override
    void close() throws IOException;
}
