package io.kaas.example.engine;

import io.kaas.api.storage.InvalidConfigException;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.StorageEngine;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The running engine: one {@link MemoryPartitionLog} per partition. Thread-safe. */
final class MemoryEngine implements StorageEngine {
    private final Clock clock;
    private final long maxPartitionBytes;
    private final Map<PartitionKey, MemoryPartitionLog> partitions = new ConcurrentHashMap<>();

    MemoryEngine(Clock clock, long maxPartitionBytes) {
        this.clock = clock;
        this.maxPartitionBytes = maxPartitionBytes;
    }

    /** Refuses {@code cleanup.policy=compact}: this engine keeps every batch and never compacts. */
    @Override
    public void checkConfig(LogConfig config) {
        if (config.compact()) {
            throw new InvalidConfigException("The memory storage engine does not compact: cleanup.policy=compact "
                    + "is not supported");
        }
    }

    @Override
    public PartitionLog openPartition(PartitionKey key, LogConfig config) {
        MemoryPartitionLog log = partitions.computeIfAbsent(key, k -> new MemoryPartitionLog(k, config, clock, maxPartitionBytes));
        log.updateConfig(config);
        return log;
    }

    @Override
    public void deletePartition(PartitionKey key) {
        partitions.remove(key);
    }

    /** Drops every partition: an in-memory engine has nothing to flush. */
    @Override
    public void close() {
        partitions.clear();
    }
}
