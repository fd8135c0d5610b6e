package io.kaas.engine.rocksdb.internal;

import io.kaas.api.storage.EngineStats;
import io.kaas.api.storage.KafkaStorageException;
import io.kaas.api.storage.PartitionOfflineException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Group commit for durable appends. An appender writes its batch (unsynced, WAL on) and then waits
 * here; one thread takes every waiter queued so far, syncs the WAL once, and completes them all.
 * Waiters that arrive during a sync are covered by the next one. A failed sync is never retried into
 * a success: it fails its waiters and every later one, and the engine refuses writes until restart.
 * Each sync's time and the appends it made durable go to the broker's {@link EngineStats} (its fsync histogram and
 * group-commit sizes).
 */
final class WalSyncer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WalSyncer.class);

    private record Waiter(CompletableFuture<Object> future, Object value) {
    }

    private final RocksDB db;
    private final Object lock = new Object();
    private final Thread thread;
    private List<Waiter> waiting = new ArrayList<>();
    private boolean closed;
    private volatile RocksDBException failure;
    private final AtomicLong syncs = new AtomicLong();
    private final EngineStats stats;

    WalSyncer(RocksDB db, String name) {
        this(db, name, EngineStats.NONE);
    }

    /** @param stats told the time of every WAL sync and how many waiting appends it made durable */
    WalSyncer(RocksDB db, String name, EngineStats stats) {
        this.db = db;
        this.stats = stats;
        this.thread = new Thread(this::run, name);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** Completes with {@code value} once everything written before this call is synced to the WAL. */
    @SuppressWarnings("unchecked")
    <T> CompletableFuture<T> afterSync(T value) {
        CompletableFuture<Object> future = new CompletableFuture<>();
        synchronized (lock) {
            if (failure != null) {
                future.completeExceptionally(offline());
            } else if (closed) {
                future.completeExceptionally(new KafkaStorageException("the rocksdb engine is closed"));
            } else {
                waiting.add(new Waiter(future, value));
                lock.notifyAll();
            }
        }
        return (CompletableFuture<T>) future;
    }

    /** Asks for a sync without waiting for it ({@code flush.messages} for non-durable appends). */
    void requestSync() {
        afterSync(Boolean.TRUE);
    }

    /** How many WAL syncs have run: far fewer than durable appends when appenders wait together. */
    long syncCount() {
        return syncs.get();
    }

    /** Throws if a sync has failed: the engine then accepts no writes. */
    void checkHealthy() {
        if (failure != null) {
            throw offline();
        }
    }

    private PartitionOfflineException offline() {
        return new PartitionOfflineException("a WAL sync failed earlier; the rocksdb engine is offline until restart",
                failure);
    }

    private void run() {
        while (true) {
            List<Waiter> batch;
            synchronized (lock) {
                while (waiting.isEmpty() && !closed) {
                    try {
                        lock.wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
                if (waiting.isEmpty()) {
                    return;
                }
                batch = waiting;
                waiting = new ArrayList<>();
            }
            sync(batch);
        }
    }

    private void sync(List<Waiter> batch) {
        try {
            if (failure != null) {
                throw failure;
            }
            long began = System.nanoTime();
            db.syncWal();
            // One sync covers every partition (the WAL is shared): no partition to name.
            stats.flushed(null, System.nanoTime() - began, batch.size());
            syncs.incrementAndGet();
        } catch (RocksDBException e) {
            if (failure == null) {
                failure = e;
                LOG.atError().setCause(e).addKeyValue("waiters", batch.size())
                        .log("WAL sync failed; the rocksdb engine refuses writes until restart");
            }
            for (Waiter w : batch) {
                w.future().completeExceptionally(new KafkaStorageException("WAL sync failed: " + e.getMessage(), e));
            }
            return;
        }
        for (Waiter w : batch) {
            w.future().complete(w.value());
        }
    }

    /** Syncs and completes every waiter already queued, then stops the thread. */
    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
            lock.notifyAll();
        }
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
