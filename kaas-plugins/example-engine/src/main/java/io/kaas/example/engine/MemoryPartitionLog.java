package io.kaas.example.engine;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.RecordBatches;
import io.kaas.api.storage.AppendResult;
import io.kaas.api.storage.BufferSlice;
import io.kaas.api.storage.KafkaStorageException;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.LogOffsets;
import io.kaas.api.storage.LogSlice;
import io.kaas.api.storage.OffsetOutOfRangeException;
import io.kaas.api.storage.OutOfOrderSequenceException;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.ReadResult;
import io.kaas.api.storage.RecordTooLargeException;
import io.kaas.api.storage.TimestampOffset;
import io.kaas.api.storage.UnsupportedFeatureException;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
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
 */
final class MemoryPartitionLog implements PartitionLog {
    private final PartitionKey key;
    private final Clock clock;
    private final long maxBytes;
    private final NavigableMap<Long, ByteBuffer> batches = new TreeMap<>();
    private final ProducerWindows producers = new ProducerWindows();
    private volatile LogConfig config;
    private volatile LogOffsets offsets = new LogOffsets(0, 0, 0);
    private long sizeInBytes;

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

    @Override
    public synchronized CompletableFuture<AppendResult> append(ByteBuffer buffer, boolean durable) {
        List<BatchHeader> headers = headers(buffer);
        LogConfig cfg = config;
        List<BatchHeader> fresh = new ArrayList<>();
        List<ProducerWindows.Entry> duplicates = new ArrayList<>();
        Map<Long, BatchHeader> lastOfProducer = new HashMap<>();
        long bytes = 0;
        for (BatchHeader h : headers) {
            if (h.sizeInBytes() > cfg.maxMessageBytes()) {
                throw new RecordTooLargeException("batch of " + h.sizeInBytes() + " bytes exceeds max.message.bytes "
                        + cfg.maxMessageBytes());
            }
            if (h.hasProducerId()) {
                Optional<ProducerWindows.Entry> duplicate = checkSequence(h, lastOfProducer.get(h.producerId()));
                if (duplicate.isPresent()) {
                    duplicates.add(duplicate.get());
                    continue;
                }
                lastOfProducer.put(h.producerId(), h);
            }
            fresh.add(h);
            bytes += h.sizeInBytes();
        }
        LogOffsets before = offsets;
        if (fresh.isEmpty()) { // a retried request: answer with the offsets the batches got the first time
            return CompletableFuture.completedFuture(new AppendResult(duplicates.get(0).firstOffset(),
                    duplicates.get(duplicates.size() - 1).lastOffset(), -1, before.logStartOffset()));
        }
        if (maxBytes >= 0 && sizeInBytes + bytes > maxBytes) {
            return CompletableFuture.failedFuture(new KafkaStorageException("partition " + key + " would exceed "
                    + "storage.memory.max.partition.bytes=" + maxBytes));
        }
        long now = clock.millis();
        long next = before.highWatermark();
        long base = next;
        for (BatchHeader h : fresh) {
            ByteBuffer copy = ByteBuffer.allocate(h.sizeInBytes());
            copy.put(buffer.duplicate().position(buffer.position() + (int) h.position()).limit(
                    buffer.position() + (int) h.position() + h.sizeInBytes())).flip();
            RecordBatches.setBaseOffset(copy, 0, next);
            if (cfg.logAppendTime()) {
                RecordBatches.setLogAppendTime(copy, 0, now);
            }
            batches.put(next, copy);
            if (h.hasProducerId()) {
                producers.record(h, next);
            }
            next += h.lastOffsetDelta() + 1L;
        }
        sizeInBytes += bytes;
        buffer.position(buffer.limit());
        offsets = new LogOffsets(before.logStartOffset(), next, next);
        return CompletableFuture.completedFuture(new AppendResult(base, next - 1, cfg.logAppendTime() ? now : -1,
                before.logStartOffset()));
    }

    /** A batch after another of the same producer in one request must follow it directly. */
    private Optional<ProducerWindows.Entry> checkSequence(BatchHeader h, BatchHeader previousInRequest) {
        if (previousInRequest == null) {
            return producers.check(h);
        }
        if (h.producerEpoch() != previousInRequest.producerEpoch()
                || h.baseSequence() != previousInRequest.lastSequence() + 1) {
            throw new OutOfOrderSequenceException("producer " + h.producerId() + " batches of one request are not in sequence");
        }
        return Optional.empty();
    }

    private static List<BatchHeader> headers(ByteBuffer buffer) {
        List<BatchHeader> out = new ArrayList<>();
        int start = buffer.position();
        for (int pos = start; pos < buffer.limit(); ) {
            BatchHeader h = RecordBatches.header(buffer, pos, pos - start);
            out.add(h);
            pos += h.sizeInBytes();
        }
        return out;
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
        LogOffsets now = offsets;
        if (offset > now.highWatermark()) {
            return CompletableFuture.failedFuture(new OffsetOutOfRangeException("offset " + offset
                    + " is above the high watermark " + now.highWatermark() + " of " + key));
        }
        long logStart = Math.max(now.logStartOffset(), offset);
        while (!batches.isEmpty() && lastOffset(batches.firstEntry().getValue()) < logStart) {
            sizeInBytes -= batches.pollFirstEntry().getValue().remaining();
        }
        offsets = new LogOffsets(logStart, now.highWatermark(), now.lastStableOffset());
        return CompletableFuture.completedFuture(logStart);
    }

    @Override
    public void updateConfig(LogConfig config) {
        this.config = config;
    }
}
