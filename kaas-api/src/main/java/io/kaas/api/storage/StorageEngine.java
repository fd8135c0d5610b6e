package io.kaas.api.storage;

import java.io.IOException;

/**
 * A running storage engine: a set of partition logs. Thread-safe: any method may be called from
 * any broker thread, never from a network event loop; methods may block on I/O.
 * Closed once, if and only if it was opened successfully.
 */
public interface StorageEngine extends AutoCloseable {

    /**
     * Opens (and, after a crash, recovers) the log of one partition, creating it empty if absent.
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
