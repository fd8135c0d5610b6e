package io.kaas.example.engine;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.ProducedBatches;
import io.kaas.api.record.RecordBatches;
import io.kaas.api.storage.AbortedTransaction;
import io.kaas.api.storage.AppendResult;
import io.kaas.api.storage.BufferSlice;
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
import io.kaas.api.storage.TimestampOffset;
import io.kaas.api.storage.UnsupportedFeatureException;
import io.kaas.records.ProducerWindows;
import io.kaas.records.TransactionTracker;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * One partition in memory: batches keyed by base offset in a sorted map, so a read is a floor lookup
 * (the batch containing the offset) and a forward walk. Writers hold the log's lock; {@link #offsets()}
 * reads a volatile snapshot. Appends are "durable" as soon as they are in the map: there is no disk.
 * Transactions (open ones, the last stable offset, aborted ranges) are tracked in memory by a
 * {@link TransactionTracker}, producer state (epochs, sequences, the coordinator epoch of the last marker: what
 * {@link #producers()} lists) by {@link ProducerWindows}, so they last as long as the engine.
 */
final class MemoryPartitionLog implements PartitionLog {
    private final PartitionKey key;
    private final Clock clock;
    private final long maxBytes;
    private final NavigableMap<Long, ByteBuffer> batches = new TreeMap<>();
    private final ProducerWindows producers = new ProducerWindows();
    private final TransactionTracker transactions = new TransactionTracker();
    private volatile LogConfig config;
    private volatile LogOffsets offsets = new LogOffsets(0, 0, 0);
    private long sizeInBytes;
    /** Given up by this broker ({@link MemoryEngine#closePartition}): appends and DeleteRecords fail until reopened. */
    private volatile boolean closed;

    MemoryPartitionLog(PartitionKey key, LogConfig config, Clock clock, long maxBytes) {
        this.key = key;
        this.config = config;
        this.clock = clock;
        this.maxBytes = maxBytes;
    }

    @Override
    public PartitionKey key() {
        return key;
    }

    /** Closes (true) or reopens (false) the partition; its batches and producer state stay in memory either way. */
    synchronized void closed(boolean value) {
        closed = value;
    }


    /**
     * Copies each new batch into the map at the next offset. The broker parsed the headers already
     * ({@link ProducedBatches#headers()}); every batch is checked on a staged view of the producer state (sequences,
     * and for a marker its producer epoch and coordinator epoch) and of the transactions, each batch against the
     * ones before it, and both are committed once every batch is in, so a refused request leaves them as they were.
     */
    @Override
    public synchronized CompletableFuture<AppendResult> append(ProducedBatches produced, boolean durable) {
        if (closed) {
            return CompletableFuture.failedFuture(new KafkaStorageException("partition " + key + " is closed"));
        }
        LogConfig cfg = config;
        ProducerWindows.Staged staged = producers.stage();
        TransactionTracker.Staged txns = transactions.stage();
        List<ProducerWindows.Batch> duplicates = new ArrayList<>();
        List<ByteBuffer> copies = new ArrayList<>();
        LogOffsets before = offsets;
        long now = clock.millis();
        long base = before.highWatermark();
        long next = base;
        long bytes = 0;
        for (BatchHeader h : produced.headers()) {
            if (h.sizeInBytes() > cfg.maxMessageBytes()) {
                throw new RecordTooLargeException("batch of " + h.sizeInBytes() + " bytes exceeds max.message.bytes "
                        + cfg.maxMessageBytes());
            }
            Optional<ProducerWindows.Batch> duplicate = staged.check(h, produced.batch(h));
            if (duplicate.isPresent()) {
                duplicates.add(duplicate.get());
                continue;
            }
            ByteBuffer copy = ByteBuffer.allocate(h.sizeInBytes()).put(produced.batch(h)).flip();
            RecordBatches.setBaseOffset(copy, 0, next);
            if (cfg.logAppendTime()) {
                RecordBatches.setLogAppendTime(copy, 0, now);
            }
            staged.record(h, next, copy);
            if (TransactionTracker.concerns(h)) {
                txns.record(h, next, copy);
            }
            copies.add(copy);
            next += h.lastOffsetDelta() + 1L;
            bytes += h.sizeInBytes();
        }
        if (copies.isEmpty()) { // a retried request: answer with the offsets the batches got the first time
            return CompletableFuture.completedFuture(new AppendResult(duplicates.get(0).firstOffset(),
                    duplicates.get(duplicates.size() - 1).lastOffset(), -1, before.logStartOffset()));
        }
        if (maxBytes >= 0 && sizeInBytes + bytes > maxBytes) {
            return CompletableFuture.failedFuture(new KafkaStorageException("partition " + key + " would exceed "
                    + "storage.memory.max.partition.bytes=" + maxBytes));
        }
        for (ByteBuffer copy : copies) {
            batches.put(copy.getLong(RecordBatches.BASE_OFFSET), copy);
        }
        staged.commit();
        txns.commit();
        sizeInBytes += bytes;
        offsets = new LogOffsets(before.logStartOffset(), next,
                Math.max(before.logStartOffset(), transactions.lastStableOffset(next)));
        return CompletableFuture.completedFuture(new AppendResult(base, next - 1, cfg.logAppendTime() ? now : -1,
                before.logStartOffset()));
    }

    @Override
    public synchronized ReadResult read(long offset, int maxBytes, long maxOffset, boolean minOneBatch) {
        LogOffsets now = offsets;
        if (offset < now.logStartOffset() || offset > now.highWatermark()) {
            throw new OffsetOutOfRangeException("offset " + offset + " is outside [" + now.logStartOffset() + ", "
                    + now.highWatermark() + "] of " + key);
        }
        Long start = batches.floorKey(offset);
        if (start == null || lastOffset(batches.get(start)) < offset) {
            start = batches.ceilingKey(offset);
        }
        List<LogSlice> slices = new ArrayList<>();
        int total = 0;
        for (Map.Entry<Long, ByteBuffer> e : start == null ? List.<Map.Entry<Long, ByteBuffer>>of() : batches.tailMap(start, true).entrySet()) {
            int size = e.getValue().remaining();
            if (e.getKey() >= maxOffset || (total + size > maxBytes && !(slices.isEmpty() && minOneBatch))) {
                break;
            }
            slices.add(new BufferSlice(e.getValue().asReadOnlyBuffer()));
            total += size;
        }
        return new ReadResult(slices, now);
    }

    private static long lastOffset(ByteBuffer batch) {
        return RecordBatches.header(batch, 0, 0).lastOffset();
    }

    @Override
    public synchronized List<ProducerState> producers() {
        return producers.states(transactions.openTransactions());
    }

    /**
     * Removes the producers idle for {@code producer.id.expiration.ms} with no open transaction (the engine's
     * background pass calls it); their next batch starts them afresh, at any sequence.
     *
     * @return the producer ids removed
     */
    synchronized List<Long> expireProducers(long nowMs, ProducerExpiration expiration) {
        return producers.expire(nowMs, expiration, transactions);
    }

    @Override
    public synchronized long sizeInBytes() {
        return sizeInBytes;
    }

    @Override
    public LogOffsets offsets() {
        return offsets;
    }

    /** Not supported: the engine keeps no timestamp index ({@code TIMESTAMP_INDEX} declared unsupported). */
    @Override
    public Optional<TimestampOffset> offsetForTimestamp(long timestamp) {
        throw new UnsupportedFeatureException("the memory engine does not look up offsets by timestamp");
    }

    /** Not supported, as {@link #offsetForTimestamp}. */
    @Override
    public Optional<TimestampOffset> maxTimestamp() {
        throw new UnsupportedFeatureException("the memory engine does not look up offsets by timestamp");
    }

    @Override
    public synchronized CompletableFuture<Long> deleteRecordsBefore(long offset) {
        if (closed) {
            return CompletableFuture.failedFuture(new KafkaStorageException("partition " + key + " is closed"));
        }
        LogOffsets now = offsets;
        if (offset > now.highWatermark()) {
            return CompletableFuture.failedFuture(new OffsetOutOfRangeException("offset " + offset
                    + " is above the high watermark " + now.highWatermark() + " of " + key));
        }
        long logStart = Math.max(now.logStartOffset(), offset);
        while (!batches.isEmpty() && lastOffset(batches.firstEntry().getValue()) < logStart) {
            sizeInBytes -= batches.pollFirstEntry().getValue().remaining();
        }
        transactions.dropBelow(logStart);
        offsets = new LogOffsets(logStart, now.highWatermark(), Math.max(logStart, now.lastStableOffset()));
        return CompletableFuture.completedFuture(logStart);
    }

    @Override
    public List<AbortedTransaction> abortedTransactions(long fromOffset, long toOffset) {
        return transactions.aborted(fromOffset, toOffset);
    }

    @Override
    public void updateConfig(LogConfig config) {
        this.config = config;
    }
}
