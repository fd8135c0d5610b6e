package io.kaas.engine.rocksdb.internal;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.ProducedBatches;
import io.kaas.api.record.RecordBatches;
import io.kaas.api.storage.AbortedTransaction;
import io.kaas.api.storage.AppendResult;
import io.kaas.api.storage.BufferSlice;
import io.kaas.api.storage.InvalidRecordException;
import io.kaas.api.storage.KafkaStorageException;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.LogOffsets;
import io.kaas.api.storage.LogSlice;
import io.kaas.api.storage.OffsetOutOfRangeException;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.ProducerExpiration;
import io.kaas.api.storage.ProducerState;
import io.kaas.api.storage.ReadResult;
import io.kaas.api.storage.RecordTooLargeException;
import io.kaas.api.storage.StorageException;
import io.kaas.api.storage.TimestampOffset;
import io.kaas.records.ProducerWindows;
import io.kaas.records.TransactionTracker;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;

/**
 * One partition in the shared database. Appends and DeleteRecords run under the partition's lock
 * and write batches and metadata in one atomic {@link WriteBatch}; the offsets are then published
 * through a volatile snapshot that reads and {@link #offsets()} use without locking.
 */
final class RocksPartitionLog implements PartitionLog {
    private final Store store;
    private final PartitionKey key;
    private final byte[] prefix;
    private final ReentrantLock lock = new ReentrantLock();
    private final ProducerWindows producers;
    private final TransactionTracker transactions;
    private volatile LogOffsets offsets;
    private volatile LogConfig config;
    private volatile boolean deleted;
    /** Given up by this broker ({@link RocksDbEngine#closePartition}); its data stays in the database. */
    private volatile boolean closed;
    /** Records appended without a sync since the last requested one; guarded by {@link #lock}. */
    private long unflushedRecords;
    /**
     * Exact sum of the sizes of the batches stored for this partition (what {@code retention.bytes}
     * limits), kept in {@code meta} with the offsets; written under {@link #lock}.
     */
    private volatile long storedBytes;

    RocksPartitionLog(Store store, PartitionKey key, LogConfig config, LogOffsets offsets, ProducerWindows producers,
                      TransactionTracker transactions, long storedBytes) {
        this.store = store;
        this.key = key;
        this.prefix = Keys.prefix(key);
        this.config = config;
        this.offsets = offsets;
        this.producers = producers;
        this.transactions = transactions;
        this.storedBytes = storedBytes;
    }

    @Override
    public PartitionKey key() {
        return key;
    }

    @Override
    public long sizeInBytes() {
        return storedBytes;
    }

    @Override
    public LogOffsets offsets() {
        return offsets;
    }

    /** The bytes of every batch still stored, the one the log start cuts through included. */
    long storedBytes() {
        return storedBytes;
    }

    @Override
    public void updateConfig(LogConfig config) {
        this.config = config;
    }

    /** Called by the engine under its lock when the partition is deleted: later calls fail. */
    void markDeleted() {
        lock.lock();
        try {
            deleted = true;
        } finally {
            lock.unlock();
        }
    }

    /** Called by the engine under its lock when the partition is given up: later appends fail, the data stays. */
    void markClosed() {
        lock.lock();
        try {
            closed = true;
        } finally {
            lock.unlock();
        }
    }

    private void ensureOpen() {
        if (deleted) {
            throw new StorageException("partition " + key + " was deleted or its engine closed");
        }
        if (closed) {
            throw new KafkaStorageException("partition " + key + " is closed");
        }
    }

    @Override
    public CompletableFuture<AppendResult> append(ProducedBatches batches, boolean durable) {
        List<BatchHeader> headers = batches.headers();
        LogConfig cfg = config;
        for (BatchHeader h : headers) {
            if (h.sizeInBytes() > cfg.maxMessageBytes()) {
                throw new RecordTooLargeException("batch of " + h.sizeInBytes() + " bytes exceeds max.message.bytes "
                        + cfg.maxMessageBytes() + " of " + key);
            }
        }
        AppendResult result;
        boolean flushDue = false;
        lock.lock();
        try {
            ensureOpen();
            store.syncer().checkHealthy();
            result = write(batches.buffer(), headers, cfg);
            if (!durable && cfg.flushMessages() > 0) {
                unflushedRecords += result.lastOffset() - result.baseOffset() + 1;
                flushDue = unflushedRecords >= cfg.flushMessages();
            }
            if (flushDue || durable) {
                unflushedRecords = 0;
            }
        } catch (StorageException e) {
            return CompletableFuture.failedFuture(e);
        } catch (RocksDBException e) {
            return CompletableFuture.failedFuture(new KafkaStorageException("append to " + key + " failed: " + e.getMessage(), e));
        } finally {
            lock.unlock();
        }
        if (durable) {
            return store.syncer().afterSync(result);
        }
        if (flushDue) {
            store.syncer().requestSync(); // flush.messages: sync soon, but acks=1 does not wait for it
        }
        return CompletableFuture.completedFuture(result);
    }

    private AppendResult write(ByteBuffer batches, List<BatchHeader> headers, LogConfig cfg) throws RocksDBException {
        ProducerWindows.Staged staged = producers.stage();
        LogOffsets before = offsets;
        long next = before.highWatermark();
        long appendTime = cfg.logAppendTime() ? store.clock().millis() : -1;
        long size = storedBytes;
        TransactionTracker.Staged txns = transactions.stage();
        try (WriteBatch wb = new WriteBatch()) {
            for (BatchHeader h : headers) {
                int pos = (int) h.position();
                // checked against the state staged so far, so later batches of one producer in this request follow
                // its earlier ones; nothing is written before every batch passed
                Optional<ProducerWindows.Batch> duplicate = staged.check(h, h.isControl()
                        ? batches.duplicate().limit(pos + h.sizeInBytes()).position(pos).slice() : null);
                if (duplicate.isPresent()) {
                    if (headers.size() > 1) {
                        throw new InvalidRecordException("a duplicate idempotent batch must come alone, not with "
                                + (headers.size() - 1) + " other batches");
                    }
                    ProducerWindows.Batch e = duplicate.get();
                    return new AppendResult(e.firstOffset(), e.lastOffset(), -1, before.logStartOffset());
                }
                RecordBatches.setBaseOffset(batches, pos, next);
                if (appendTime >= 0) {
                    RecordBatches.setLogAppendTime(batches, pos, appendTime);
                }
                byte[] value = new byte[h.sizeInBytes()];
                batches.get(pos, value);
                wb.put(store.batches(), Keys.batch(prefix, next), value);
                ByteBuffer stored = ByteBuffer.wrap(value);
                staged.record(h, next, stored);
                if (TransactionTracker.concerns(h)) {
                    txns.record(h, next, stored);
                }
                next += h.lastOffsetDelta() + 1L;
                size += h.sizeInBytes();
            }
            wb.put(store.meta(), Keys.offsets(prefix), Keys.encodeOffsets(before.logStartOffset(), next, size));
            for (Map.Entry<Long, ProducerWindows.Producer> p : staged.changed().entrySet()) {
                wb.put(store.meta(), Keys.producer(prefix, p.getKey()), StoredProducers.encode(p.getValue()));
            }
            for (TransactionTracker.Change c : txns.changes()) {
                if (c.closed()) {
                    wb.delete(store.meta(), Keys.openTxn(prefix, c.producerId()));
                } else {
                    wb.put(store.meta(), Keys.openTxn(prefix, c.producerId()), Keys.encodeLong(c.openedAt()));
                }
                if (c.aborted() != null) {
                    wb.put(store.meta(), Keys.abortedTxn(prefix, c.aborted().lastOffset(), c.producerId()),
                            Keys.encodeLong(c.aborted().firstOffset()));
                }
            }
            store.db().write(store.unsynced(), wb);
        }
        staged.commit();
        txns.commit();
        storedBytes = size;
        offsets = new LogOffsets(before.logStartOffset(), next,
                Math.max(before.logStartOffset(), transactions.lastStableOffset(next)));
        return new AppendResult(before.highWatermark(), next - 1, appendTime, before.logStartOffset());
    }

    @Override
    public ReadResult read(long offset, int maxBytes, long maxOffset, boolean minOneBatch) {
        LogOffsets snapshot = offsets;
        ensureOpen();
        if (offset < snapshot.logStartOffset() || offset > snapshot.highWatermark()) {
            throw new OffsetOutOfRangeException("offset " + offset + " is outside " + key + " [" + snapshot.logStartOffset()
                    + ", " + snapshot.highWatermark() + "]");
        }
        long limit = Math.min(maxOffset, snapshot.highWatermark());
        List<LogSlice> slices = new ArrayList<>();
        int[] total = {0};
        scan(offset, limit, (base, value) -> {
            if (total[0] + value.length > maxBytes && !(minOneBatch && slices.isEmpty())) {
                return false;
            }
            slices.add(new BufferSlice(ByteBuffer.wrap(value)));
            total[0] += value.length;
            return true;
        });
        return new ReadResult(List.copyOf(slices), snapshot);
    }

    @Override
    public List<AbortedTransaction> abortedTransactions(long fromOffset, long toOffset) {
        return transactions.aborted(fromOffset, toOffset);
    }

    /** Under the partition lock, held by appends only while they write their WriteBatch (not while they wait for a sync). */
    @Override
    public List<ProducerState> producers() {
        lock.lock();
        try {
            return producers.states(transactions.openTransactions());
        } finally {
            lock.unlock();
        }
    }

    /**
     * Removes the producers idle for {@code producer.id.expiration.ms} at {@code now} with no open transaction
     * (Kafka's {@code removeExpiredProducers}): their keys are deleted in one {@link WriteBatch}, then they leave the
     * memory state, so a restart does not bring them back. The WAL sync is requested, not awaited: a crash before it
     * may bring them back, and the next pass removes them again. Under the partition lock.
     *
     * @return the producer ids removed
     * @throws KafkaStorageException if the delete could not be written (nothing changed)
     */
    List<Long> expireProducers(long now, ProducerExpiration expiration) {
        lock.lock();
        try {
            if (deleted) {
                return List.of();
            }
            List<Long> expired = producers.expired(now, expiration, transactions);
            if (expired.isEmpty()) {
                return expired;
            }
            try (WriteBatch wb = new WriteBatch()) {
                for (long producerId : expired) {
                    wb.delete(store.meta(), Keys.producer(prefix, producerId));
                }
                store.db().write(store.unsynced(), wb);
            } catch (RocksDBException e) {
                throw new KafkaStorageException("could not delete the expired producers " + ProducerWindows.describe(expired)
                        + " of " + key + ": " + e.getMessage(), e);
            }
            producers.forget(expired);
            store.syncer().requestSync(); // soon durable, without holding the lock for a WAL sync
            return expired;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Optional<TimestampOffset> offsetForTimestamp(long timestamp) {
        LogOffsets snapshot = offsets;
        List<TimestampOffset> found = new ArrayList<>(1);
        scan(snapshot.logStartOffset(), snapshot.highWatermark(), (base, value) -> {
            BatchTimestamps.firstAtOrAfter(value, timestamp, snapshot.logStartOffset()).ifPresent(found::add);
            return found.isEmpty();
        });
        return found.stream().findFirst();
    }

    /**
     * The first record with the largest timestamp: batch headers pick the first batch with the largest max
     * timestamp, and only that batch's records are walked (decompressed if need be). The batch the log start
     * cuts through is walked at once, as its header may count records below the log start.
     */
    @Override
    public Optional<TimestampOffset> maxTimestamp() {
        LogOffsets snapshot = offsets;
        MaxFinder finder = new MaxFinder(snapshot.logStartOffset());
        scan(snapshot.logStartOffset(), snapshot.highWatermark(), finder);
        return finder.result();
    }

    /** Keeps the first batch with the largest max timestamp seen so far; resolves its record at the end. */
    private static final class MaxFinder implements BatchVisitor {
        private final long logStart;
        private long bestTimestamp;
        private TimestampOffset resolved;
        private byte[] bestBatch;

        MaxFinder(long logStart) {
            this.logStart = logStart;
        }

        @Override
        public boolean visit(long baseOffset, byte[] batch) {
            if (baseOffset < logStart) {
                resolved = BatchTimestamps.max(batch, logStart).orElse(null);
                bestTimestamp = resolved == null ? Long.MIN_VALUE : resolved.timestamp();
                return true;
            }
            long max = ByteBuffer.wrap(batch).getLong(RecordBatches.MAX_TIMESTAMP);
            if ((resolved == null && bestBatch == null) || max > bestTimestamp) {
                bestTimestamp = max;
                bestBatch = batch;
                resolved = null;
            }
            return true;
        }

        Optional<TimestampOffset> result() {
            return bestBatch != null ? BatchTimestamps.max(bestBatch, logStart) : Optional.ofNullable(resolved);
        }
    }

    private interface BatchVisitor {
        /** @return false to stop */
        boolean visit(long baseOffset, byte[] batch);
    }

    /**
     * Visits, in offset order, the batch containing {@code from} and every later batch starting below
     * {@code limit}. Uses SeekForPrev to land on the greatest key at or below {@code from}.
     */
    private void scan(long from, long limit, BatchVisitor visitor) {
        if (from >= limit) {
            return;
        }
        try (RocksIterator it = store.db().newIterator(store.batches())) {
            it.seekForPrev(Keys.batch(prefix, from));
            if (!it.isValid() || !Keys.hasPrefix(it.key(), prefix)) {
                it.seek(Keys.batch(prefix, from));
            }
            for (; it.isValid(); it.next()) {
                byte[] k = it.key();
                if (!Keys.hasPrefix(k, prefix)) {
                    break;
                }
                long base = Keys.baseOffset(k);
                if (base >= limit) {
                    break;
                }
                byte[] value = it.value();
                long last = base + ByteBuffer.wrap(value).getInt(RecordBatches.LAST_OFFSET_DELTA);
                if (last < from) {
                    continue;
                }
                if (!visitor.visit(base, value)) {
                    break;
                }
            }
            it.status();
        } catch (RocksDBException e) {
            throw new KafkaStorageException("read of " + key + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    public CompletableFuture<Long> deleteRecordsBefore(long offset) {
        lock.lock();
        try {
            ensureOpen();
            LogOffsets o = offsets;
            if (offset > o.highWatermark()) {
                throw new OffsetOutOfRangeException("cannot delete records before " + offset + ": above the high watermark "
                        + o.highWatermark() + " of " + key);
            }
            if (offset <= o.logStartOffset()) {
                return CompletableFuture.completedFuture(o.logStartOffset());
            }
            long deleteBelow = firstKeptBatch(offset, o.highWatermark());
            long size = storedBytes - bytesBelow(o.logStartOffset(), deleteBelow);
            try (WriteBatch wb = new WriteBatch()) {
                if (deleteBelow > 0) {
                    wb.deleteRange(store.batches(), Keys.batch(prefix, 0), Keys.batch(prefix, deleteBelow));
                }
                wb.put(store.meta(), Keys.offsets(prefix), Keys.encodeOffsets(offset, o.highWatermark(), size));
                // aborted ranges whose marker is below the new log start: their key range ends at marker offset `offset`
                wb.deleteRange(store.meta(), Keys.abortedTxnsStart(prefix), Keys.abortedTxn(prefix, offset, 0));
                store.db().write(store.synced(), wb);
            }
            transactions.dropBelow(offset);
            storedBytes = size;
            offsets = new LogOffsets(offset, o.highWatermark(), Math.max(offset, o.lastStableOffset()));
            return CompletableFuture.completedFuture(offset);
        } catch (StorageException e) {
            return CompletableFuture.failedFuture(e);
        } catch (RocksDBException e) {
            return CompletableFuture.failedFuture(new KafkaStorageException("DeleteRecords on " + key + " failed: "
                    + e.getMessage(), e));
        } finally {
            lock.unlock();
        }
    }

    /**
     * One retention pass: advances the log start through the DeleteRecords path past the leading batches
     * that {@code retention.ms} or {@code retention.bytes} expire, whichever reaches further. Only for a
     * topic whose {@code cleanup.policy} includes {@code delete}: a compact-only topic keeps all its data
     * (this engine does not compact, and refuses to create such topics; one recorded before keeps everything).
     *
     * @return the log start after the pass
     */
    long applyRetention(long now) {
        LogConfig cfg = config;
        LogOffsets o = offsets;
        if (deleted || !cfg.delete() || o.logStartOffset() >= o.highWatermark()) {
            return o.logStartOffset();
        }
        long target = Math.max(timeRetentionTarget(cfg, o, now), sizeRetentionTarget(cfg, o));
        if (target <= o.logStartOffset()) {
            return o.logStartOffset();
        }
        return deleteRecordsBefore(target).join();
    }

    /**
     * {@code retention.ms}: the base of the first batch whose largest timestamp is not older than
     * {@code now - retention.ms}, as Kafka stops at the first segment that is not expired.
     */
    private long timeRetentionTarget(LogConfig cfg, LogOffsets o, long now) {
        if (cfg.retentionMs() < 0) {
            return o.logStartOffset();
        }
        long cutoff = now - cfg.retentionMs();
        long[] target = {o.highWatermark()};
        scan(o.logStartOffset(), o.highWatermark(), (base, value) -> {
            if (ByteBuffer.wrap(value).getLong(RecordBatches.MAX_TIMESTAMP) >= cutoff) {
                target[0] = base;
                return false;
            }
            return true;
        });
        return target[0];
    }

    /**
     * {@code retention.bytes}: the end of the longest run of leading batches whose removal leaves at least
     * {@code retention.bytes} stored, Kafka's rule ({@code size - segment.size >= retention.bytes}) applied
     * batch by batch, as this engine has no segments.
     */
    private long sizeRetentionTarget(LogConfig cfg, LogOffsets o) {
        long excess = storedBytes - cfg.retentionBytes();
        if (cfg.retentionBytes() < 0 || excess <= 0) {
            return o.logStartOffset();
        }
        long[] left = {excess};
        long[] target = {o.logStartOffset()};
        scan(o.logStartOffset(), o.highWatermark(), (base, value) -> {
            if (value.length > left[0]) {
                return false;
            }
            left[0] -= value.length;
            target[0] = base + ByteBuffer.wrap(value).getInt(RecordBatches.LAST_OFFSET_DELTA) + 1;
            return true;
        });
        return target[0];
    }

    /** Sum of the sizes of the stored batches from the one containing {@code from} up to base {@code below}. */
    private long bytesBelow(long from, long below) {
        long[] sum = {0};
        scan(from, below, (base, value) -> {
            sum[0] += value.length;
            return true;
        });
        return sum[0];
    }

    /** Base offset of the batch that contains {@code offset}, or {@code offset} itself at the high watermark. */
    private long firstKeptBatch(long offset, long highWatermark) {
        long[] base = {offset};
        if (offset < highWatermark) {
            scan(offset, highWatermark, (b, value) -> {
                base[0] = b;
                return false;
            });
        }
        return base[0];
    }

    /** Loads a partition's offsets and producer state; a partition never written is empty. */
    static RocksPartitionLog load(Store store, PartitionKey key, LogConfig config) throws RocksDBException {
        byte[] prefix = Keys.prefix(key);
        byte[] meta = store.db().get(store.meta(), Keys.offsets(prefix));
        LogOffsets offsets = new LogOffsets(0, 0, 0);
        long storedBytes = 0;
        if (meta != null) {
            long[] o = Keys.decodeOffsets(meta);
            offsets = new LogOffsets(o[0], o[1], o[1]);
            storedBytes = o[2] >= 0 ? o[2] : sumStored(store, prefix);
        }
        ProducerWindows producers = new ProducerWindows();
        Map<Long, Long> open = new java.util.HashMap<>();
        List<AbortedTransaction> aborted = new ArrayList<>();
        try (RocksIterator it = store.db().newIterator(store.meta())) {
            scanMeta(it, Keys.producersStart(prefix), Keys.openTxnsStart(prefix),
                    k -> producers.restore(Keys.producerId(k), StoredProducers.decode(it.value())));
            scanMeta(it, Keys.openTxnsStart(prefix), Keys.abortedTxnsStart(prefix),
                    k -> open.put(Keys.producerId(k), Keys.decodeLong(it.value())));
            scanMeta(it, Keys.abortedTxnsStart(prefix), Keys.metaEnd(prefix),
                    k -> aborted.add(new AbortedTransaction(Keys.abortedProducerId(k), Keys.decodeLong(it.value()),
                            Keys.abortedLastOffset(k))));
        }
        TransactionTracker transactions = new TransactionTracker();
        transactions.restore(open, aborted);
        offsets = new LogOffsets(offsets.logStartOffset(), offsets.highWatermark(),
                Math.max(offsets.logStartOffset(), transactions.lastStableOffset(offsets.highWatermark())));
        return new RocksPartitionLog(store, key, config, offsets, producers, transactions, storedBytes);
    }

    /** Visits the meta keys in [{@code start}, {@code end}), the iterator positioned on each. */
    private static void scanMeta(RocksIterator it, byte[] start, byte[] end, java.util.function.Consumer<byte[]> visitor)
            throws RocksDBException {
        for (it.seek(start); it.isValid(); it.next()) {
            byte[] k = it.key();
            if (java.util.Arrays.compareUnsigned(k, end) >= 0) {
                break;
            }
            visitor.accept(k);
        }
        it.status();
    }

    /** The stored bytes of a partition whose metadata predates their accounting (version 1): one scan. */
    private static long sumStored(Store store, byte[] prefix) throws RocksDBException {
        long sum = 0;
        try (RocksIterator it = store.db().newIterator(store.batches())) {
            for (it.seek(Keys.batch(prefix, 0)); it.isValid() && Keys.hasPrefix(it.key(), prefix); it.next()) {
                sum += it.value().length;
            }
            it.status();
        }
        return sum;
    }

    /** Removes every batch and all metadata of {@code key}, durably. */
    static void deleteAll(Store store, PartitionKey key) throws RocksDBException {
        byte[] prefix = Keys.prefix(key);
        try (WriteBatch wb = new WriteBatch()) {
            wb.deleteRange(store.batches(), Keys.batch(prefix, 0), Keys.batchesEnd(prefix));
            wb.deleteRange(store.meta(), Keys.offsets(prefix), Keys.metaEnd(prefix));
            store.db().write(store.synced(), wb);
        }
    }

}
