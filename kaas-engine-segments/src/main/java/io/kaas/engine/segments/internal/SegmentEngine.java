package io.kaas.engine.segments.internal;

import io.kaas.api.storage.EngineContext;
import io.kaas.api.storage.FencedLeaderEpochException;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.StorageEngine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The segment storage engine: a set of {@link SegmentPartitionLog}s under the data directory, one
 * small committer pool shared by all partitions for group-commit fsyncs, a {@link DeferredCloser}
 * for deleted segments, one background thread for retention passes ({@code retention.check.interval.ms})
 * and producer expiry passes ({@code producer.id.expiration.check.interval.ms}, from the {@link EngineContext})
 * and one watchdog thread that times fsyncs ({@code fsync.timeout.ms}) and flushes non-durable appends
 * ({@code flush.interval.ms}), and the log cleaner's threads ({@link CleanerThreads}: {@code cleaner.threads},
 * {@code cleaner.backoff.ms}, {@code cleaner.io.max.bytes.per.second}, changed at run time by {@link #reconfigure}).
 * The watchdog has its own thread because a retention pass may itself block
 * in an fsync (a roll). Partition open, delete and close are serialized on the engine.
 *
 * <p>Several engines (brokers) may share one data directory, each writing the partitions assigned to it at their
 * leader epochs ({@link #openPartition(PartitionKey, LogConfig, int)}); nothing is shared between engine instances
 * in one JVM (no static state), so two engines over one directory behave as two brokers.
 */
public final class SegmentEngine implements StorageEngine {
    private static final Logger LOG = LoggerFactory.getLogger(SegmentEngine.class);
    private final Path dataDir;
    private final EngineContext context;
    private final IoHooks hooks;
    private final ExecutorService committers;
    private final DeferredCloser closer;
    private final SegmentEngineConfig config;
    private final EngineResources resources;
    private final ScheduledExecutorService cleaner;
    private final ScheduledExecutorService watchdog;
    private final CleanerThreads cleaners;
    private final Map<String, SegmentPartitionLog> partitions = new HashMap<>();
    private volatile List<SegmentPartitionLog> openLogs = List.of();
    private long lastFlushNanos = System.nanoTime();
    private boolean closed;

    SegmentEngine(EngineContext context, IoHooks hooks) throws IOException {
        SegmentEngineConfig config = SegmentEngineConfig.from(context.config());
        this.context = context;
        this.dataDir = context.dataDir();
        this.hooks = hooks;
        Files.createDirectories(dataDir);
        AtomicInteger n = new AtomicInteger();
        this.committers = Executors.newFixedThreadPool(config.committerThreads(), r -> {
            Thread t = new Thread(r, "kaas-segments-committer-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.closer = new DeferredCloser(config.deletedSegmentCloseDelayMs());
        this.config = config;
        this.resources = new EngineResources(config, committers, closer, context.stats());
        this.cleaner = daemonScheduler("kaas-segments-retention");
        this.watchdog = daemonScheduler("kaas-segments-fsync-watchdog");
        cleaner.scheduleWithFixedDelay(this::retentionPassQuietly, config.retentionCheckIntervalMs(),
                config.retentionCheckIntervalMs(), TimeUnit.MILLISECONDS);
        long expiryInterval = context.producerExpiration().checkIntervalMs();
        cleaner.scheduleWithFixedDelay(this::producerExpiryPassQuietly, expiryInterval, expiryInterval,
                TimeUnit.MILLISECONDS);
        watchdog.scheduleWithFixedDelay(this::watchdogTick, config.watchdogTickMs(), config.watchdogTickMs(),
                TimeUnit.MILLISECONDS);
        this.cleaners = new CleanerThreads(config.cleaner(), () -> openLogs, this::clean);
    }

    /** One compaction pass over {@code log} (its cleaning lock held by the caller). */
    private int clean(SegmentPartitionLog log) throws IOException {
        return LogCleaner.run(log, context.clock().millis(), config.cleanerMaxKeysPerPass(), context.producerExpiration(),
                cleaners.throttle());
    }

    /**
     * Applies the cleaner settings of {@code settings} ({@code cleaner.threads}, {@code cleaner.io.max.bytes.per.second},
     * {@code cleaner.backoff.ms}) at once; the other settings stay as the engine opened with them.
     *
     * @throws io.kaas.api.plugin.PluginConfigException naming the key if a cleaner setting is unusable; nothing changes
     */
    @Override
    public void reconfigure(io.kaas.api.plugin.PluginConfig settings) {
        cleaners.reconfigure(CleanerSettings.from(settings));
    }

    /** The cleaner settings in force, for tests. */
    CleanerSettings cleanerSettings() {
        return cleaners.settings();
    }

    /** The names of this engine's cleaner threads alive now, sorted, for tests. */
    List<String> cleanerThreadNames() {
        return cleaners.liveThreadNames();
    }

    private static ScheduledExecutorService daemonScheduler(String name) {
        return Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Runs one retention pass over every open partition now, on the calling thread (the background thread
     * calls it every {@code retention.check.interval.ms}). A partition that fails is logged and skipped.
     *
     * @return the number of partitions whose log start moved
     */
    public int runRetentionPass() {
        int advanced = 0;
        long now = context.clock().millis();
        for (SegmentPartitionLog log : openLogs) {
            if (log.isClosed()) {
                continue; // given up (closePartition) since the pass began
            }
            try {
                long before = log.offsets().logStartOffset();
                if (LogRetention.run(log, now) > before) {
                    advanced++;
                }
            } catch (IOException | RuntimeException e) {
                LOG.atWarn().addKeyValue("partition", log.key()).setCause(e).setMessage("retention pass failed").log();
            }
        }
        return advanced;
    }

    /**
     * Runs one compaction pass over every open partition whose {@code cleanup.policy} includes compact, on the
     * calling thread, waiting for a cleaner thread that is compacting a partition to finish with it (the cleaner
     * threads run passes by themselves, see {@link CleanerThreads}). See {@link LogCleaner}.
     *
     * @return the number of segments rewritten
     */
    public int runCleanerPass() {
        int rewritten = 0;
        for (SegmentPartitionLog log : openLogs) {
            if (log.isClosed()) {
                continue;
            }
            log.cleaning.lock();
            try {
                rewritten += clean(log);
            } catch (IOException | RuntimeException e) {
                LOG.atWarn().addKeyValue("partition", log.key()).setCause(e).setMessage("compaction pass failed").log();
            } finally {
                log.cleaning.unlock();
            }
        }
        return rewritten;
    }

    /**
     * Removes, in every open partition, the producers idle for {@code producer.id.expiration.ms} with no open
     * transaction (see {@link SegmentPartitionLog#expireProducers}), on the calling thread; the background thread
     * calls it every {@code producer.id.expiration.check.interval.ms}. A partition that fails is logged and skipped.
     *
     * @return the number of producers removed
     */
    public int runProducerExpiryPass() {
        int removed = 0;
        long now = context.clock().millis();
        for (SegmentPartitionLog log : openLogs) {
            try {
                removed += log.expireProducers(now, context.producerExpiration());
            } catch (RuntimeException e) {
                LOG.atWarn().addKeyValue("partition", log.key()).setCause(e).log("Producer expiry pass of {} failed", log.key());
            }
        }
        return removed;
    }

    private void producerExpiryPassQuietly() {
        try {
            runProducerExpiryPass();
        } catch (RuntimeException e) {
            LOG.atWarn().setCause(e).log("Producer expiry pass failed");
        }
    }

    private void retentionPassQuietly() {
        try {
            runRetentionPass();
        } catch (RuntimeException e) {
            LOG.atWarn().setCause(e).setMessage("retention pass failed").log();
        }
    }

    private void watchdogTick() {
        long now = System.nanoTime();
        long timeout = TimeUnit.MILLISECONDS.toNanos(config.fsyncTimeoutMs());
        boolean flush = now - lastFlushNanos >= TimeUnit.MILLISECONDS.toNanos(config.flushIntervalMs());
        if (flush) {
            lastFlushNanos = now;
        }
        for (SegmentPartitionLog log : openLogs) {
            try {
                log.checkFsyncDeadline(now, timeout);
                if (flush) {
                    log.flushIfBehind();
                }
            } catch (RuntimeException e) {
                LOG.atWarn().addKeyValue("partition", log.key()).setCause(e).setMessage("fsync watchdog check failed").log();
            }
        }
    }

    /** Opens the engine over {@code context.dataDir()}; called by the provider. */
    /** The {@code storage.segments.*} settings {@link #open} reads, without the prefix. */
    public static Set<String> configKeys() {
        return SegmentEngineConfig.KEYS;
    }

    public static SegmentEngine open(EngineContext context) throws IOException {
        return new SegmentEngine(context, IoHooks.NONE);
    }

    private static String name(PartitionKey key) {
        return key.topic() + "/" + key.partition();
    }

    /** Every setting is served: this engine compacts ({@code cleanup.policy=compact}) and deletes by retention. */
    @Override
    public Optional<Path> logDir() {
        return Optional.of(dataDir);
    }

    @Override
    public void checkConfig(LogConfig config) {
        // nothing to refuse
    }

    /**
     * The open log of {@code key} whatever its epoch, else the log opened at epoch 0: a broker alone on its data
     * directory. A directory a cluster has written (epoch above 0) is refused with
     * {@link FencedLeaderEpochException}: a broker that writes it must say at which epoch.
     */
    @Override
    public synchronized PartitionLog openPartition(PartitionKey key, LogConfig config) throws IOException {
        SegmentPartitionLog open = partitions.get(name(key));
        if (open != null && open.key().topicId().equals(key.topicId())) {
            return open;
        }
        return openPartition(key, config, 0);
    }

    @Override
    public synchronized PartitionLog openPartition(PartitionKey key, LogConfig config, int leaderEpoch) throws IOException {
        if (closed) {
            throw new IOException("the segment engine is closed");
        }
        if (leaderEpoch < 0) {
            throw new IllegalArgumentException("leader epoch " + leaderEpoch + " of " + key + " is negative");
        }
        SegmentPartitionLog open = partitions.get(name(key));
        if (open != null) {
            boolean sameTopic = open.key().topicId().equals(key.topicId());
            if (sameTopic && open.leaderEpoch() == leaderEpoch) {
                return open;
            }
            if (sameTopic && open.leaderEpoch() > leaderEpoch) {
                throw new FencedLeaderEpochException("partition " + key + " is open at leader epoch " + open.leaderEpoch()
                        + ", above " + leaderEpoch);
            }
            // re-created under the same name (the old log is stale), or taken over again at a higher epoch
            partitions.remove(name(key));
            openLogs = List.copyOf(partitions.values());
            open.closeForHandover();
        }
        SegmentPartitionLog log = SegmentPartitionLog.open(key, config, leaderEpoch, dataDir, resources, hooks,
                context.clock(), context.fence());
        partitions.put(name(key), log);
        openLogs = List.copyOf(partitions.values());
        return log;
    }

    /**
     * Flushes and closes the partition (see {@link SegmentPartitionLog#close}: appends waiting for durability complete,
     * later ones fail with a {@link io.kaas.api.storage.KafkaStorageException}) and forgets it; its files stay for
     * the next writer, whose recovery starts at the checkpoint written here. Not open: a no-op.
     */
    @Override
    public synchronized void closePartition(PartitionKey key) throws IOException {
        SegmentPartitionLog open = partitions.get(name(key));
        if (open == null || !open.key().topicId().equals(key.topicId())) {
            return;
        }
        partitions.remove(name(key));
        openLogs = List.copyOf(partitions.values());
        open.closeForHandover();
        LOG.atInfo().addKeyValue("partition", key).addKeyValue("leaderEpoch", open.leaderEpoch())
                .log("Partition {} closed (given up at leader epoch {})", key, open.leaderEpoch());
    }

    @Override
    public synchronized void deletePartition(PartitionKey key) throws IOException {
        SegmentPartitionLog open = partitions.get(name(key));
        if (open != null && open.key().topicId().equals(key.topicId())) {
            partitions.remove(name(key));
            openLogs = List.copyOf(partitions.values());
            open.close();
        }
        Path dir = PartitionDirectory.pathOf(dataDir, key);
        Optional<UUID> topicId = PartitionDirectory.readTopicId(dir);
        if (topicId.isEmpty() || topicId.get().equals(key.topicId())) {
            PartitionDirectory.deleteRecursively(dir, hooks);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        openLogs = List.of();
        cleaners.close(); // each thread finishes the partition it compacts
        cleaner.shutdown(); // never interrupt a pass: an interrupt closes the FileChannel it is using
        watchdog.shutdownNow();
        try {
            cleaner.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<IOException> failures = new ArrayList<>();
        for (SegmentPartitionLog log : partitions.values()) {
            try {
                log.close();
            } catch (IOException e) {
                failures.add(e);
            }
        }
        partitions.clear();
        committers.shutdown();
        try {
            committers.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closer.close();
        if (!failures.isEmpty()) {
            IOException first = failures.get(0);
            failures.subList(1, failures.size()).forEach(first::addSuppressed);
            throw first;
        }
    }
}
