package io.kaas.coordinator.transaction;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.ProducedBatches;
import io.kaas.api.record.RecordBatches;
import io.kaas.api.storage.AppendResult;
import io.kaas.api.storage.BufferSlice;
import io.kaas.api.storage.FileSlice;
import io.kaas.api.storage.LogOffsets;
import io.kaas.api.storage.LogSlice;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.ReadResult;
import io.kaas.coordinator.CoordinatorTimer;
import io.kaas.records.BatchBuilder;
import io.kaas.records.RecordReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads and writes the partitions of {@code __transaction_state}: one durable record per state change
 * ({@link TransactionRecordCodec}), the load of a partition at start, and the engine-independent cleanup that
 * rewrites a partition's live state at its end and deletes the records before it. Thread-safe: appends to one
 * partition are made under that partition's monitor (held only for the append call, never while waiting for
 * durability), so a rewrite never interleaves with a change of an id of its partition.
 */
final class StatePartitions {
    private static final Logger LOG = LoggerFactory.getLogger(StatePartitions.class);
    private static final String TOPIC = "__transaction_state";
    /** Records per batch of a rewrite. */
    private static final int REWRITE_BATCH = 256;
    private static final int READ_BYTES = 1 << 20;

    private final TransactionStateLog log;
    private final CoordinatorTimer timer;
    private final Object[] locks;
    /** Records in each partition since its log start, as far as this coordinator wrote or loaded them. */
    private final AtomicLongArray records;

    StatePartitions(TransactionStateLog log, CoordinatorTimer timer) {
        this.log = log;
        this.timer = timer;
        this.locks = new Object[log.partitionCount()];
        for (int i = 0; i < locks.length; i++) {
            locks[i] = new Object();
        }
        this.records = new AtomicLongArray(log.partitionCount());
    }

    int count() {
        return locks.length;
    }

    /** The monitor appends to {@code partition} are made under. */
    Object lock(int partition) {
        return locks[partition];
    }

    long records(int partition) {
        return records.get(partition);
    }

    /**
     * Appends the record of {@code transactionalId} ({@code image} null: a tombstone) durably.
     *
     * @return completes once the record is on stable storage, or exceptionally
     */
    CompletableFuture<AppendResult> write(int partition, String transactionalId, TransactionImage image) {
        byte[] value = image == null ? null : TransactionRecordCodec.value(image);
        ByteBuffer batch = BatchBuilder.create(timer.nowMs()).add(TransactionRecordCodec.key(transactionalId), value)
                .build();
        synchronized (locks[partition]) {
            return append(partition, batch, 1);
        }
    }

    /** Under the partition's monitor. */
    private CompletableFuture<AppendResult> append(int partition, ByteBuffer batches, int count) {
        try {
            PartitionLog p = log.partition(partition);
            CompletableFuture<AppendResult> f = p.append(ProducedBatches.validate(batches), true);
            records.addAndGet(partition, count);
            return f;
        } catch (IOException | RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Reads every record of {@code partition} from its log start to its high watermark, handing each decoded one
     * to {@code sink} (a null image: tombstone) in offset order. A record that does not decode is logged and
     * skipped; the others are kept.
     *
     * @return the records read
     */
    long load(int partition, BiConsumer<String, TransactionImage> sink) throws IOException {
        PartitionLog p = log.partition(partition);
        LogOffsets offsets = p.offsets();
        long next = offsets.logStartOffset();
        long count = 0;
        while (next < offsets.highWatermark()) {
            ReadResult read = p.read(next, READ_BYTES, offsets.highWatermark(), true);
            if (read.slices().isEmpty()) {
                break;
            }
            long before = next;
            for (LogSlice slice : read.slices()) {
                ByteBuffer buf = bytes(slice);
                for (BatchHeader h : RecordBatches.headers(buf)) {
                    if (h.nextOffset() <= next) {
                        continue; // the first batch of a read may start below the offset asked for
                    }
                    ByteBuffer batch = buf.duplicate().limit((int) h.position() + h.sizeInBytes())
                            .position((int) h.position());
                    count += loadBatch(partition, batch, h, next, sink);
                    next = h.nextOffset();
                }
            }
            if (next == before) {
                throw new IOException(TOPIC + "-" + partition + " returned no batch at offset " + next);
            }
        }
        records.set(partition, count);
        return count;
    }

    private int loadBatch(int partition, ByteBuffer batch, BatchHeader h, long from,
                          BiConsumer<String, TransactionImage> sink) {
        if (h.isControl()) {
            return 0;
        }
        List<RecordReader.Record> rs;
        try {
            rs = RecordReader.read(batch, h);
        } catch (IOException e) {
            LOG.atError().addKeyValue("partition", TOPIC + "-" + partition).addKeyValue("offset", h.baseOffset())
                    .log("Skipped the undecodable batch at offset {} of {}-{}: {}; the ids it held keep their "
                            + "earlier state", h.baseOffset(), TOPIC, partition, e.getMessage());
            return 0;
        }
        int n = 0;
        for (RecordReader.Record r : rs) {
            if (r.offset() < from) {
                continue;
            }
            n++;
            String id;
            try {
                id = TransactionRecordCodec.decodeKey(r.key());
            } catch (TransactionRecordCodec.DecodeException e) {
                LOG.atError().addKeyValue("partition", TOPIC + "-" + partition).addKeyValue("offset", r.offset())
                        .log("Skipped the record at offset {} of {}-{}: {}", r.offset(), TOPIC, partition,
                                e.getMessage());
                continue;
            }
            if (r.value() == null) {
                sink.accept(id, null);
                continue;
            }
            try {
                sink.accept(id, TransactionRecordCodec.decodeValue(r.value()));
            } catch (TransactionRecordCodec.DecodeException e) {
                LOG.atError().addKeyValue("transactionalId", id).addKeyValue("partition", TOPIC + "-" + partition)
                        .addKeyValue("offset", r.offset())
                        .log("Skipped the state record of transactional id {} at offset {} of {}-{}: {}; the id "
                                + "keeps its earlier state", id, r.offset(), TOPIC, partition, e.getMessage());
            }
        }
        return n;
    }

    private static ByteBuffer bytes(LogSlice slice) throws IOException {
        if (slice instanceof BufferSlice b) {
            return b.buffer().slice();
        }
        FileSlice f = (FileSlice) slice;
        ByteBuffer buf = ByteBuffer.allocate(f.sizeInBytes());
        long position = f.position();
        while (buf.hasRemaining()) {
            int n = f.channel().read(buf, position);
            if (n < 0) {
                throw new IOException("file slice ends " + buf.remaining() + " bytes early");
            }
            position += n;
        }
        return buf.flip();
    }

    /**
     * Rewrites {@code live} (the current image of every id of the partition, taken under the partition's monitor
     * by the caller) at the end of {@code partition}, then deletes the records before the rewrite. Called under
     * the partition's monitor; the deletion runs once the rewrite is durable.
     *
     * @return completes with the new log start offset
     */
    CompletableFuture<Long> rewrite(int partition, Map<String, TransactionImage> live) {
        List<CompletableFuture<AppendResult>> appends = new ArrayList<>();
        BatchBuilder b = BatchBuilder.create(timer.nowMs());
        for (Map.Entry<String, TransactionImage> e : live.entrySet()) {
            b.add(TransactionRecordCodec.key(e.getKey()), TransactionRecordCodec.value(e.getValue()));
            if (b.size() == REWRITE_BATCH) {
                appends.add(append(partition, b.build(), b.size()));
                b = BatchBuilder.create(timer.nowMs());
            }
        }
        if (b.size() > 0) {
            appends.add(append(partition, b.build(), b.size()));
        }
        long before = records.get(partition);
        CompletableFuture<Long> first;
        if (appends.isEmpty()) {
            try {
                long end = log.partition(partition).offsets().highWatermark();
                first = CompletableFuture.completedFuture(end);
            } catch (IOException e) {
                return CompletableFuture.failedFuture(e);
            }
        } else {
            first = CompletableFuture.allOf(appends.toArray(CompletableFuture[]::new))
                    .thenApply(v -> appends.get(0).join().baseOffset());
        }
        return first.thenCompose(start -> {
            try {
                return log.partition(partition).deleteRecordsBefore(start).thenApply(done -> {
                    records.addAndGet(partition, -(before - live.size()));
                    return done;
                });
            } catch (IOException e) {
                return CompletableFuture.failedFuture(e);
            }
        });
    }
}
