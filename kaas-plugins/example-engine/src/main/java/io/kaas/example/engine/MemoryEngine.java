package io.kaas.example.engine;

import java.util.Optional;
import java.nio.file.Path;
import io.kaas.api.storage.InvalidConfigException;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.StorageEngine;
import io.kaas.api.storage.ProducerExpiration;
import io.kaas.records.ProducerWindows;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running engine: one {@link MemoryPartitionLog} per partition, and one background thread that removes idle
 * producers' state every {@code producer.id.expiration.check.interval.ms} (as the host passes it in the
 * {@link io.kaas.api.storage.EngineContext}). Thread-safe.
 */
final class MemoryEngine implements StorageEngine {
    private static final Logger LOG = LoggerFactory.getLogger(MemoryEngine.class);
    private final Clock clock;
    private final long maxPartitionBytes;
    private final ProducerExpiration expiration;
    private final Map<PartitionKey, MemoryPartitionLog> partitions = new ConcurrentHashMap<>();
    private final ScheduledExecutorService expiry;

    MemoryEngine(Clock clock, long maxPartitionBytes, ProducerExpiration expiration) {
        this.clock = clock;
        this.maxPartitionBytes = maxPartitionBytes;
        this.expiration = expiration;
        this.expiry = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kaas-memory-producer-expiry");
            t.setDaemon(true);
            return t;
        });
        expiry.scheduleWithFixedDelay(this::expireProducers, expiration.checkIntervalMs(), expiration.checkIntervalMs(),
                TimeUnit.MILLISECONDS);
    }

    /** One expiry pass over every partition; a partition that fails is logged and skipped. */
    private void expireProducers() {
        long now = clock.millis();
        for (MemoryPartitionLog log : partitions.values()) {
            try {
                List<Long> removed = log.expireProducers(now, expiration);
                if (!removed.isEmpty()) {
                    LOG.atInfo().addKeyValue("partition", log.key()).addKeyValue("count", removed.size())
                            .addKeyValue("producerIds", ProducerWindows.describe(removed))
                            .log("Removed the state of {} producer(s) of {} idle for producer.id.expiration.ms={}: {}",
                                    removed.size(), log.key(), expiration.expirationMs(), ProducerWindows.describe(removed));
                }
            } catch (RuntimeException e) {
                LOG.atWarn().addKeyValue("partition", log.key()).setCause(e).log("Producer expiry pass failed");
            }
        }
    }

    /** Refuses {@code cleanup.policy=compact}: this engine keeps every batch and never compacts. */
    /** None: the partitions are in memory, so DescribeLogDirs reports no log dir (as a Kafka broker with none). */
    @Override
    public Optional<Path> logDir() {
        return Optional.empty();
    }

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
        log.closed(false);
        return log;
    }

    /**
     * Gives the partition up: later appends and DeleteRecords on it fail with KAFKA_STORAGE_ERROR until it is opened
     * again. Nothing is removed: the batches stay in this engine's memory (there is nothing to flush), so a reopen
     * serves them. Not open: a no-op.
     */
    @Override
    public void closePartition(PartitionKey key) {
        MemoryPartitionLog log = partitions.get(key);
        if (log != null) {
            log.closed(true);
        }
    }

    @Override
    public void deletePartition(PartitionKey key) {
        partitions.remove(key);
    }

    /** Stops the expiry thread and drops every partition: an in-memory engine has nothing to flush. */
    @Override
    public void close() {
        expiry.shutdownNow();
        try {
            expiry.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        partitions.clear();
    }
}
