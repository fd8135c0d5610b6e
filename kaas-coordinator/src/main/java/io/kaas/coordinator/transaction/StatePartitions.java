package io.kaas.coordinator.transaction;

import io.kaas.api.record.ProducedBatches;
import io.kaas.api.storage.AppendResult;
import io.kaas.api.storage.PartitionLog;
import io.kaas.coordinator.CoordinatorTimer;
import io.kaas.coordinator.internal.NotCoordinatorException;
import io.kaas.coordinator.internal.OwnedPartitions;
import io.kaas.coordinator.internal.StateLogReader;
import io.kaas.records.BatchBuilder;
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

    private final OwnedPartitions owned;
    private final CoordinatorTimer timer;
    private final Object[] locks;
    /** Records in each partition since its log start, as far as this coordinator wrote or loaded them. */
    private final AtomicLongArray records;

    StatePartitions(OwnedPartitions owned, int count, CoordinatorTimer timer) {
        this.owned = owned;
        this.timer = timer;
        this.locks = new Object[count];
        for (int i = 0; i < locks.length; i++) {
            locks[i] = new Object();
        }
        this.records = new AtomicLongArray(count);
    }

    int count() {
        return locks.length;
    }

    /** The monitor appends to {@code partition} are made under. */
    Object lock(int partition) {
        return locks[partition];
    }

    /** The partition is no longer this broker's: nothing to clean up in it here. */
    void forget(int partition) {
        records.set(partition, 0);
    }

    long records(int partition) {
        return records.get(partition);
    }

    /**
     * Appends the record of {@code transactionalId} ({@code image} null: a tombstone) durably.
     *
     * @return completes once the record is on stable storage, or exceptionally; with
     *         {@link NotCoordinatorException} if the partition is not owned, or was lost (or moved to another epoch)
     *         before the append was durable: the change may or may not be seen by the next owner, so it is not
     *         acknowledged
     */
    CompletableFuture<AppendResult> write(int partition, String transactionalId, TransactionImage image) {
        byte[] value = image == null ? null : TransactionRecordCodec.value(image);
        ByteBuffer batch = BatchBuilder.create(timer.nowMs()).add(TransactionRecordCodec.key(transactionalId), value)
                .build();
        OwnedPartitions.Owned at = owned.get(partition);
        if (at == null) {
            return CompletableFuture.failedFuture(new NotCoordinatorException(TOPIC + "-" + partition
                    + " is not owned by this broker"));
        }
        CompletableFuture<AppendResult> f;
        synchronized (locks[partition]) {
            f = append(partition, batch, 1);
        }
        return f.thenCompose(r -> owned.ownedAt(partition, at.leaderEpoch()) ? CompletableFuture.completedFuture(r)
                : CompletableFuture.failedFuture(new NotCoordinatorException(TOPIC + "-" + partition
                        + " was given up while the write of transactional id " + transactionalId + " was in flight")));
    }

    /** Under the partition's monitor. */
    private CompletableFuture<AppendResult> append(int partition, ByteBuffer batches, int count) {
        try {
            PartitionLog p = owned.log(partition);
            CompletableFuture<AppendResult> f = p.append(ProducedBatches.validate(batches), true);
            records.addAndGet(partition, count);
            return f;
        } catch (RuntimeException e) {
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
        String name = TOPIC + "-" + partition;
        long count = StateLogReader.read(owned.log(partition), name, (offset, key, value) -> {
            String id;
            try {
                id = TransactionRecordCodec.decodeKey(key);
            } catch (TransactionRecordCodec.DecodeException e) {
                LOG.atError().addKeyValue("partition", name).addKeyValue("offset", offset)
                        .log("Skipped the record at offset {} of {}: {}", offset, name, e.getMessage());
                return;
            }
            if (value == null) {
                sink.accept(id, null);
                return;
            }
            try {
                sink.accept(id, TransactionRecordCodec.decodeValue(value));
            } catch (TransactionRecordCodec.DecodeException e) {
                LOG.atError().addKeyValue("transactionalId", id).addKeyValue("partition", name)
                        .addKeyValue("offset", offset)
                        .log("Skipped the state record of transactional id {} at offset {} of {}: {}; the id "
                                + "keeps its earlier state", id, offset, name, e.getMessage());
            }
        });
        records.set(partition, count);
        return count;
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
                long end = owned.log(partition).offsets().highWatermark();
                first = CompletableFuture.completedFuture(end);
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        } else {
            first = CompletableFuture.allOf(appends.toArray(CompletableFuture[]::new))
                    .thenApply(v -> appends.get(0).join().baseOffset());
        }
        return first.thenCompose(start -> {
            try {
                return owned.log(partition).deleteRecordsBefore(start).thenApply(done -> {
                    records.addAndGet(partition, -(before - live.size()));
                    return done;
                });
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        });
    }
}
