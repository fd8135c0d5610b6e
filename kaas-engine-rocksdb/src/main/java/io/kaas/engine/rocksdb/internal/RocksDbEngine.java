package io.kaas.engine.rocksdb.internal;

import java.util.Optional;
import io.kaas.api.storage.EngineStats;
import io.kaas.api.storage.InvalidConfigException;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.ProducerExpiration;
import io.kaas.api.storage.StorageEngine;
import io.kaas.records.ProducerWindows;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The RocksDB engine: one database, column families {@code batches} and {@code meta}, one
 * {@link RocksPartitionLog} per open partition. Owns every native object it creates and frees them
 * all in {@link #close()}, in reverse order of creation.
 */
public final class RocksDbEngine implements StorageEngine {
    private static final Logger LOG = LoggerFactory.getLogger(RocksDbEngine.class);
    private static final byte[] BATCHES = "batches".getBytes(StandardCharsets.UTF_8);
    private static final byte[] META = "meta".getBytes(StandardCharsets.UTF_8);

    private final Path dir;
    private final List<AutoCloseable> natives;
    private final List<ColumnFamilyHandle> handles;
    private final Store store;
    private final Map<PartitionKey, RocksPartitionLog> partitions = new HashMap<>();
    private final ScheduledExecutorService retention;
    private final ProducerExpiration producerExpiration;
    private boolean closed;

    private final EngineStats stats;

    private RocksDbEngine(Path dir, List<AutoCloseable> natives, List<ColumnFamilyHandle> handles, Store store,
                          long retentionCheckIntervalMs, ProducerExpiration producerExpiration, EngineStats stats) {
        this.dir = dir;
        this.stats = stats;
        this.natives = natives;
        this.handles = handles;
        this.store = store;
        this.producerExpiration = producerExpiration;
        this.retention = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kaas-rocksdb-retention");
            t.setDaemon(true);
            return t;
        });
        retention.scheduleWithFixedDelay(this::retentionPass, retentionCheckIntervalMs, retentionCheckIntervalMs,
                TimeUnit.MILLISECONDS);
        retention.scheduleWithFixedDelay(this::producerExpiryPass, producerExpiration.checkIntervalMs(),
                producerExpiration.checkIntervalMs(), TimeUnit.MILLISECONDS);
    }

    /**
     * Removes, in every open partition, the producers idle for {@code producer.id.expiration.ms} with no open
     * transaction; runs on the retention thread every {@code producer.id.expiration.check.interval.ms}. One failing
     * partition does not stop the others.
     *
     * @return the number of producers removed
     */
    int producerExpiryPass() {
        List<RocksPartitionLog> open;
        synchronized (this) {
            if (closed) {
                return 0;
            }
            open = List.copyOf(partitions.values());
        }
        long now = store.clock().millis();
        int removed = 0;
        for (RocksPartitionLog log : open) {
            try {
                List<Long> expired = log.expireProducers(now, producerExpiration);
                if (!expired.isEmpty()) {
                    removed += expired.size();
                    LOG.atInfo().addKeyValue("partition", log.key()).addKeyValue("count", expired.size())
                            .addKeyValue("producerIds", ProducerWindows.describe(expired))
                            .log("Removed the state of {} producer(s) of {} idle for producer.id.expiration.ms={}: {}",
                                    expired.size(), log.key(), producerExpiration.expirationMs(),
                                    ProducerWindows.describe(expired));
                }
            } catch (RuntimeException e) {
                LOG.atWarn().setCause(e).addKeyValue("partition", log.key())
                        .log("Producer expiry pass of {} failed", log.key());
            }
        }
        return removed;
    }

    /** Applies retention.ms and retention.bytes to every open partition; one failing partition does not stop the others. */
    void retentionPass() {
        List<RocksPartitionLog> open;
        synchronized (this) {
            if (closed) {
                return;
            }
            open = List.copyOf(partitions.values());
        }
        long now = store.clock().millis();
        for (RocksPartitionLog log : open) {
            try {
                long before = log.offsets().logStartOffset();
                long after = log.applyRetention(now);
                if (after > before) {
                    LOG.atInfo().addKeyValue("partition", log.key()).addKeyValue("logStartOffset", after)
                            .log("Retention advanced the log start");
                }
            } catch (RuntimeException e) {
                LOG.atWarn().setCause(e).addKeyValue("partition", log.key()).log("Retention pass failed");
            }
        }
    }

    /** {@link #open(Path, RocksDbConfig, Clock, ProducerExpiration)} with Kafka's default producer expiration. */
    public static RocksDbEngine open(Path dir, RocksDbConfig config, Clock clock) throws IOException {
        return open(dir, config, clock, ProducerExpiration.KAFKA_DEFAULTS);
    }

    /** Opens or creates the database in {@code dir}; idle producers expire as {@code producerExpiration} says. */
    public static RocksDbEngine open(Path dir, RocksDbConfig config, Clock clock, ProducerExpiration producerExpiration)
            throws IOException {
        return open(dir, config, clock, producerExpiration, EngineStats.NONE);
    }

    /** As above, WAL syncs and partition opens measured into {@code stats} (the broker's metrics). */
    public static RocksDbEngine open(Path dir, RocksDbConfig config, Clock clock, ProducerExpiration producerExpiration,
                                     EngineStats stats) throws IOException {
        RocksDB.loadLibrary();
        Files.createDirectories(dir);
        List<AutoCloseable> natives = new ArrayList<>();
        try {
            LRUCache cache = track(natives, new LRUCache(Math.max(config.blockCacheBytes(), 1)));
            BlockBasedTableConfig table = new BlockBasedTableConfig().setBlockCache(cache)
                    .setFilterPolicy(track(natives, new BloomFilter(10)));
            ColumnFamilyOptions batchOptions = track(natives, new ColumnFamilyOptions()
                    .setCompressionType(config.compressionType()).setWriteBufferSize(config.writeBufferBytes())
                    .setTableFormatConfig(table));
            ColumnFamilyOptions metaOptions = track(natives, new ColumnFamilyOptions()
                    .setCompressionType(CompressionType.NO_COMPRESSION).setWriteBufferSize(4L * 1024 * 1024)
                    .setTableFormatConfig(table));
            DBOptions dbOptions = track(natives, new DBOptions().setCreateIfMissing(true)
                    .setCreateMissingColumnFamilies(true).setMaxBackgroundJobs(4));
            List<ColumnFamilyDescriptor> descriptors = List.of(
                    new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, metaOptions),
                    new ColumnFamilyDescriptor(BATCHES, batchOptions),
                    new ColumnFamilyDescriptor(META, metaOptions));
            List<ColumnFamilyHandle> handles = new ArrayList<>();
            RocksDB db = RocksDB.open(dbOptions, dir.toString(), descriptors, handles);
            natives.add(db::closeE); // closed after the handles, before the options
            WriteOptions unsynced = track(natives, new WriteOptions().setSync(false));
            WriteOptions synced = track(natives, new WriteOptions().setSync(true));
            WalSyncer syncer = new WalSyncer(db, "kaas-rocksdb-wal-sync", stats);
            natives.add(syncer);
            Store store = new Store(db, handles.get(1), handles.get(2), unsynced, synced, syncer, clock);
            LOG.atInfo().addKeyValue("dir", dir).addKeyValue("config", config)
                    .log("Opened rocksdb storage engine");
            return new RocksDbEngine(dir, natives, handles, store, config.retentionCheckIntervalMs(), producerExpiration,
                    stats);
        } catch (RocksDBException | RuntimeException e) {
            closeAll(natives, List.of());
            throw new IOException("cannot open the rocksdb engine in " + dir + ": " + e.getMessage(), e);
        }
    }

    private static <T extends AutoCloseable> T track(List<AutoCloseable> natives, T object) {
        natives.add(object);
        return object;
    }

    /**
     * Refuses {@code cleanup.policy=compact} (alone or with {@code delete}): this engine does not compact, so
     * it could neither keep only the latest record per key nor apply Kafka's compaction settings.
     */
    /** The database's directory ({@code rocksdb} in the broker's data directory): where the partitions' bytes are. */
    @Override
    public Optional<Path> logDir() {
        return Optional.of(dir);
    }

    @Override
    public void checkConfig(LogConfig config) {
        if (config.compact()) {
            throw new InvalidConfigException("The rocksdb storage engine does not compact: cleanup.policy=compact "
                    + "is not supported (use cleanup.policy=delete, or storage.engine=segments for compacted topics)");
        }
    }

    @Override
    public synchronized PartitionLog openPartition(PartitionKey key, LogConfig config) throws IOException {
        ensureOpen();
        RocksPartitionLog log = partitions.get(key);
        if (log != null) {
            return log;
        }
        long began = System.nanoTime();
        try {
            log = RocksPartitionLog.load(store, key, config);
        } catch (RocksDBException e) {
            throw new IOException("cannot open partition " + key + ": " + e.getMessage(), e);
        }
        // Nothing to scan: RocksDB replayed its WAL when the database opened; the partition reads its metadata.
        stats.recovered(key, System.nanoTime() - began, 0);
        partitions.put(key, log);
        return log;
    }

    /**
     * Gives the partition up without removing anything: later appends on the closed log fail with
     * KAFKA_STORAGE_ERROR, the WAL is synced (appends not yet durable become so), and the next
     * {@link #openPartition} loads it again from the database. Not open: a no-op.
     */
    @Override
    public synchronized void closePartition(PartitionKey key) throws IOException {
        if (closed) {
            return;
        }
        RocksPartitionLog log = partitions.remove(key);
        if (log == null) {
            return;
        }
        log.markClosed();
        try {
            store.db().syncWal();
        } catch (RocksDBException e) {
            throw new IOException("WAL sync at the close of " + key + " failed: " + e.getMessage(), e);
        }
        LOG.atInfo().addKeyValue("partition", key).log("Partition {} closed", key);
    }

    @Override
    public synchronized void deletePartition(PartitionKey key) throws IOException {
        ensureOpen();
        RocksPartitionLog log = partitions.remove(key);
        if (log != null) {
            log.markDeleted();
        }
        try {
            RocksPartitionLog.deleteAll(store, key);
        } catch (RocksDBException e) {
            throw new IOException("cannot delete partition " + key + ": " + e.getMessage(), e);
        }
    }

    /** WAL syncs so far (for tests of the group commit). */
    long walSyncs() {
        return store.syncer().syncCount();
    }

    /** True once every native object of the engine has been freed (for tests). */
    boolean nativesReleased() {
        return !store.db().isOwningHandle() && !store.unsynced().isOwningHandle() && !store.synced().isOwningHandle()
                && handles.stream().noneMatch(ColumnFamilyHandle::isOwningHandle);
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("the rocksdb engine in " + dir + " is closed");
        }
    }

    /**
     * Stops the retention thread, completes pending durable appends, flushes the memtables and syncs
     * the WAL, then frees every native object.
     */
    @Override
    public void close() throws IOException {
        retention.shutdownNow(); // outside the monitor: a pass about to start takes it briefly
        try {
            retention.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            closeLocked();
        }
    }

    private void closeLocked() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        partitions.values().forEach(RocksPartitionLog::markDeleted);
        partitions.clear();
        IOException failure = null;
        try {
            store.syncer().close();
            try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
                store.db().flush(flush, List.of(store.batches(), store.meta()));
            }
            store.db().syncWal();
        } catch (RocksDBException e) {
            failure = new IOException("flush on close of " + dir + " failed: " + e.getMessage(), e);
        }
        IOException closing = closeAll(natives, handles);
        if (failure == null) {
            failure = closing;
        }
        if (failure != null) {
            throw failure;
        }
        LOG.atInfo().addKeyValue("dir", dir).log("Closed rocksdb storage engine");
    }

    /** Closes the column family handles, then the tracked objects newest first (DB before its options). */
    private static IOException closeAll(List<AutoCloseable> natives, List<ColumnFamilyHandle> handles) {
        IOException failure = null;
        List<AutoCloseable> order = new ArrayList<>();
        for (int i = natives.size() - 1; i >= 0; i--) {
            order.add(natives.get(i));
        }
        for (ColumnFamilyHandle h : handles) {
            h.close();
        }
        for (AutoCloseable c : order) {
            try {
                c.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = new IOException("closing " + c.getClass().getSimpleName() + " failed", e);
                }
            }
        }
        return failure;
    }
}
