package io.kaas.coordinator.group;

import io.kaas.api.cluster.ClusterStateException;
import io.kaas.api.cluster.CommittedOffset;
import io.kaas.api.cluster.TopicPartitionRef;
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
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The committed offsets of the groups whose {@code __consumer_offsets} partitions this broker owns: in memory for
 * OffsetFetch, made durable (appended and fsynced) in the group's partition before a change returns
 * ({@link OffsetRecordCodec}: one record per offset, a tombstone per deleted one), and the membership of their classic
 * groups at the end of each rebalance ({@link GroupMetadataCodec}). Loaded when a partition is gained
 * (last record per group and partition wins), dropped when it is lost; a write to a partition that is no longer
 * owned fails with {@link NotCoordinatorException}.
 *
 * <p>The engine-independent replacement of compaction: once a partition holds more than {@link #MIN_RECORDS} records
 * and more than {@link #RECORDS_PER_OFFSET} per live offset, the live offsets are written again at its end and the
 * records before are deleted ({@code deleteRecordsBefore}); a crash in between leaves duplicates only, which the
 * load resolves. The rewrite is made under the partition's monitor while no write of it is in flight.
 *
 * <p>Thread-safe. Callers serialise the changes of one group (the group's monitor).
 */
final class OffsetStore {
    private static final Logger LOG = LoggerFactory.getLogger(OffsetStore.class);
    static final String TOPIC = "__consumer_offsets";
    static final long MIN_RECORDS = 1_000;
    static final long RECORDS_PER_OFFSET = 4;
    private static final int REWRITE_BATCH = 256;
    private static final long WRITE_TIMEOUT_MS = 30_000;

    /** What this broker keeps of one owned partition besides its log. */
    private static final class PartitionState {
        final Object lock = new Object();
        /** Writes appended and not yet applied; a rewrite waits for none. Guarded by {@link #lock}. */
        int inFlight;
        /** Records since the log start, as far as loaded or written here. Guarded by {@link #lock}. */
        long records;
        volatile boolean rewriting;
        /**
         * Transactional offsets in the log whose marker has not come yet: producer id → group → partition → offset.
         * Guarded by {@link #lock}.
         */
        final Map<Long, Map<String, Map<TopicPartitionRef, CommittedOffset>>> transactional = new HashMap<>();
    }

    private final OwnedPartitions owned;
    private final CoordinatorTimer timer;
    private final long minRecords;
    /** group → partition → offset; each inner map an immutable snapshot, replaced on change. */
    private final Map<String, Map<TopicPartitionRef, CommittedOffset>> offsets = new ConcurrentHashMap<>();
    private final Map<Integer, PartitionState> partitions = new ConcurrentHashMap<>();
    /** group → the value of its latest group metadata record (classic membership), for the rewrite. */
    private final Map<String, byte[]> groupMetadata = new ConcurrentHashMap<>();

    /** One record to append: a null value is a tombstone. */
    private record Rec(byte[] key, byte[] value) {
    }

    /** What a partition held when it was loaded: the groups with offsets, and the classic groups' membership. */
    record Loaded(Set<String> groupsWithOffsets, Map<String, GroupMetadataCodec.Image> groups,
                  Map<Long, Map<String, Map<TopicPartitionRef, CommittedOffset>>> pendingTransactional) {
    }

    OffsetStore(OwnedPartitions owned, CoordinatorTimer timer, long minRecords) {
        this.owned = owned;
        this.timer = timer;
        this.minRecords = minRecords;
    }

    OwnedPartitions owned() {
        return owned;
    }

    // ---- reads, from memory ----

    Map<TopicPartitionRef, CommittedOffset> committedOffsets(String groupId) {
        return offsets.getOrDefault(groupId, Map.of());
    }

    Collection<String> groupsWithOffsets() {
        return List.copyOf(offsets.keySet());
    }

    // ---- writes, durable on return ----

    /**
     * Stores {@code changes} of {@code groupId}, replacing earlier commits of the same partitions.
     *
     * @throws NotCoordinatorException if the group's partition is not (or no longer) this broker's
     * @throws ClusterStateException   if the append failed or did not become durable in time; nothing changes here
     */
    void commitOffsets(String groupId, Map<TopicPartitionRef, CommittedOffset> changes) {
        if (changes.isEmpty()) {
            return;
        }
        Map<TopicPartitionRef, CommittedOffset> values = new LinkedHashMap<>(changes);
        write(groupId, values);
    }

    /** Removes every offset of {@code groupId} and its membership (tombstones). Same errors as {@link #commitOffsets}. */
    void deleteGroup(String groupId) {
        Map<TopicPartitionRef, CommittedOffset> current = committedOffsets(groupId);
        if (!current.isEmpty()) {
            Map<TopicPartitionRef, CommittedOffset> tombstones = new LinkedHashMap<>();
            current.keySet().forEach(tp -> tombstones.put(tp, null));
            write(groupId, tombstones);
        }
        deleteGroupMetadata(groupId);
    }

    /** Removes the offsets of {@code tps} from {@code groupId} (tombstones); others stay. As {@link #commitOffsets}. */
    void deleteOffsets(String groupId, Collection<TopicPartitionRef> tps) {
        Map<TopicPartitionRef, CommittedOffset> current = committedOffsets(groupId);
        Map<TopicPartitionRef, CommittedOffset> tombstones = new LinkedHashMap<>();
        for (TopicPartitionRef tp : tps) {
            if (current.containsKey(tp)) {
                tombstones.put(tp, null);
            }
        }
        if (!tombstones.isEmpty()) {
            write(groupId, tombstones);
        }
    }

    /** Appends one record per entry (a null value: tombstone), waits for durability, then applies them here. */
    private void write(String groupId, Map<TopicPartitionRef, CommittedOffset> changes) {
        List<Rec> records = new ArrayList<>();
        changes.forEach((tp, o) -> records.add(new Rec(OffsetRecordCodec.key(groupId, tp),
                o == null ? null : OffsetRecordCodec.value(o))));
        write(groupId, records, () -> apply(groupId, changes), -1, (short) -1);
    }

    /**
     * Appends {@code changes} of {@code groupId} as a transactional batch of producer {@code producerId} (epoch
     * {@code producerEpoch}), as Kafka's group coordinator writes a TxnOffsetCommit, and keeps them as pending until
     * {@link #takeTransactional} (the producer's marker). A later append of the same partition replaces the earlier.
     * Same errors as {@link #commitOffsets}.
     */
    void appendTransactional(String groupId, long producerId, short producerEpoch,
                             Map<TopicPartitionRef, CommittedOffset> changes) {
        if (changes.isEmpty()) {
            return;
        }
        List<Rec> records = new ArrayList<>();
        changes.forEach((tp, o) -> records.add(new Rec(OffsetRecordCodec.key(groupId, tp), OffsetRecordCodec.value(o))));
        int partition = owned.partitionFor(groupId);
        write(groupId, records, () -> {
            PartitionState ps = partitions.get(partition);
            if (ps != null) {
                synchronized (ps.lock) {
                    ps.transactional.computeIfAbsent(producerId, p -> new HashMap<>())
                            .computeIfAbsent(groupId, g -> new LinkedHashMap<>()).putAll(changes);
                }
            }
        }, producerId, producerEpoch);
    }

    /**
     * Removes and returns the pending transactional offsets of {@code producerId} in {@code partition} (its marker was
     * written): group → partition → offset, empty if none.
     */
    Map<String, Map<TopicPartitionRef, CommittedOffset>> takeTransactional(int partition, long producerId) {
        PartitionState ps = partitions.get(partition);
        if (ps == null) {
            return Map.of();
        }
        synchronized (ps.lock) {
            Map<String, Map<TopicPartitionRef, CommittedOffset>> taken = ps.transactional.remove(producerId);
            return taken == null ? Map.of() : taken;
        }
    }

    /** Puts back offsets {@link #takeTransactional} returned whose completion failed. */
    void restoreTransactional(int partition, long producerId, String groupId,
                              Map<TopicPartitionRef, CommittedOffset> pending) {
        PartitionState ps = partitions.get(partition);
        if (ps != null) {
            synchronized (ps.lock) {
                ps.transactional.computeIfAbsent(producerId, p -> new HashMap<>())
                        .computeIfAbsent(groupId, g -> new LinkedHashMap<>()).putAll(pending);
            }
        }
    }

    /** The producers with transactional offsets pending in {@code partition}. */
    Set<Long> transactionalProducers(int partition) {
        PartitionState ps = partitions.get(partition);
        if (ps == null) {
            return Set.of();
        }
        synchronized (ps.lock) {
            return Set.copyOf(ps.transactional.keySet());
        }
    }

    /**
     * Stores the membership of classic group {@code groupId} (Kafka's GroupMetadata record), replacing the earlier.
     * Same errors as {@link #commitOffsets}.
     */
    void storeGroup(String groupId, GroupMetadataCodec.Image image) {
        byte[] value = GroupMetadataCodec.value(image);
        write(groupId, List.of(new Rec(GroupMetadataCodec.key(groupId), value)), () -> groupMetadata.put(groupId, value),
                -1, (short) -1);
    }

    /** Removes the stored membership of {@code groupId} (a tombstone), if any. Same errors as {@link #commitOffsets}. */
    void deleteGroupMetadata(String groupId) {
        if (groupMetadata.containsKey(groupId)) {
            write(groupId, java.util.Arrays.asList(new Rec(GroupMetadataCodec.key(groupId), null)),
                    () -> groupMetadata.remove(groupId), -1, (short) -1);
        }
    }

    /**
     * Appends {@code records} to the group's partition (a transactional batch of {@code producerId} when it is not
     * -1), waits for durability, then runs {@code apply}.
     */
    private void write(String groupId, List<Rec> records, Runnable apply, long producerId, short producerEpoch) {
        int partition = owned.partitionFor(groupId);
        OwnedPartitions.Owned at = owned.get(partition);
        PartitionState ps = partitions.get(partition);
        if (at == null || ps == null) {
            throw new NotCoordinatorException(TOPIC + "-" + partition + " of group " + groupId
                    + " is not owned by this broker");
        }
        BatchBuilder b = BatchBuilder.create(timer.nowMs());
        if (producerId >= 0) {
            b.producer(producerId, producerEpoch, -1).transactional();
        }
        records.forEach(r -> b.add(r.key(), r.value()));
        ByteBuffer batch = b.build();
        CompletableFuture<AppendResult> f;
        synchronized (ps.lock) {
            f = append(at.log(), batch);
            ps.inFlight++;
            ps.records += records.size();
        }
        try {
            await(f, groupId, partition);
            if (!owned.ownedAt(partition, at.leaderEpoch())) {
                throw new NotCoordinatorException(TOPIC + "-" + partition + " of group " + groupId
                        + " was given up while the write was in flight");
            }
            apply.run();
        } finally {
            synchronized (ps.lock) {
                ps.inFlight--;
            }
        }
        maybeRewrite(partition);
    }

    private static CompletableFuture<AppendResult> append(PartitionLog log, ByteBuffer batch) {
        try {
            return log.append(ProducedBatches.validate(batch), true);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static void await(CompletableFuture<?> f, String groupId, int partition) {
        try {
            f.get(WRITE_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof ClusterStateException c) {
                throw c;
            }
            throw new ClusterStateException("could not write the offsets of group " + groupId + " to " + TOPIC + "-"
                    + partition + ": " + cause, cause);
        } catch (TimeoutException e) {
            throw new ClusterStateException("the offsets of group " + groupId + " were not durable in " + TOPIC + "-"
                    + partition + " after " + WRITE_TIMEOUT_MS + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterStateException("interrupted while writing the offsets of group " + groupId);
        }
    }

    private void apply(String groupId, Map<TopicPartitionRef, CommittedOffset> changes) {
        offsets.compute(groupId, (g, current) -> {
            Map<TopicPartitionRef, CommittedOffset> next = current == null ? new HashMap<>() : new HashMap<>(current);
            changes.forEach((tp, o) -> {
                if (o == null) {
                    next.remove(tp);
                } else {
                    next.put(tp, o);
                }
            });
            return next.isEmpty() ? null : Map.copyOf(next);
        });
    }

    // ---- ownership ----

    /**
     * Loads partition {@code partition} from {@code log} (the caller marked it loading in {@link #owned()}): the last
     * record of each group and partition wins, a tombstone removes it. An undecodable record is logged with the
     * partition and offset and skipped; the rest loads.
     *
     * @return the groups of the partition with offsets
     * @throws IOException if the log cannot be read
     */
    Loaded load(int partition, PartitionLog log) throws IOException {
        String name = TOPIC + "-" + partition;
        Map<String, Map<TopicPartitionRef, CommittedOffset>> loaded = new HashMap<>();
        Map<String, byte[]> groupValues = new HashMap<>();
        Map<String, GroupMetadataCodec.Image> groups = new HashMap<>();
        Map<Long, Map<String, Map<TopicPartitionRef, CommittedOffset>>> transactional = new HashMap<>();
        StateLogReader.RecordSink records0 = (offset, key, value) -> {
            OffsetRecordCodec.Key k;
            try {
                k = OffsetRecordCodec.decodeKey(key);
            } catch (OffsetRecordCodec.DecodeException e) {
                LOG.atError().addKeyValue("partition", name).addKeyValue("offset", offset)
                        .log("Skipped the record at offset {} of {}: {}", offset, name, e.getMessage());
                return;
            }
            if (k.group() == null) {
                return; // a record type kaas does not use (KIP-848 group records, share groups)
            }
            if (owned.partitionFor(k.group()) != partition) {
                LOG.atError().addKeyValue("partition", name).addKeyValue("offset", offset)
                        .log("Skipped the offset of group {} at offset {} of {}: the group belongs to partition {}",
                                k.group(), offset, name, owned.partitionFor(k.group()));
                return;
            }
            if (!k.isOffset()) {
                if (value == null) {
                    groupValues.remove(k.group());
                    groups.remove(k.group());
                    return;
                }
                try {
                    groups.put(k.group(), GroupMetadataCodec.decodeValue(value));
                    groupValues.put(k.group(), value);
                } catch (OffsetRecordCodec.DecodeException e) {
                    LOG.atError().addKeyValue("group", k.group()).addKeyValue("partition", name)
                            .addKeyValue("offset", offset)
                            .log("Skipped the group metadata of group {} at offset {} of {}: {}; the group keeps its "
                                    + "earlier membership", k.group(), offset, name, e.getMessage());
                }
                return;
            }
            if (value == null) {
                Map<TopicPartitionRef, CommittedOffset> g = loaded.get(k.group());
                if (g != null) {
                    g.remove(k.partition());
                    if (g.isEmpty()) {
                        loaded.remove(k.group());
                    }
                }
                return;
            }
            try {
                loaded.computeIfAbsent(k.group(), x -> new HashMap<>()).put(k.partition(),
                        OffsetRecordCodec.decodeValue(value));
            } catch (OffsetRecordCodec.DecodeException e) {
                LOG.atError().addKeyValue("group", k.group()).addKeyValue("partition", name)
                        .addKeyValue("offset", offset)
                        .log("Skipped the offset commit of group {} for {} at offset {} of {}: {}; the group keeps "
                                + "its earlier offset", k.group(), k.partition(), offset, name, e.getMessage());
            }
        };
        long records = StateLogReader.read(log, name, new StateLogReader.TransactionalRecordSink() {
            @Override
            public void accept(long offset, byte[] key, byte[] value) {
                records0.accept(offset, key, value);
            }

            @Override
            public void acceptTransactional(long producerId, long offset, byte[] key, byte[] value) {
                try {
                    OffsetRecordCodec.Key k = OffsetRecordCodec.decodeKey(key);
                    if (k.group() == null || !k.isOffset() || value == null
                            || owned.partitionFor(k.group()) != partition) {
                        return; // TxnOffsetCommit writes offset commits only
                    }
                    transactional.computeIfAbsent(producerId, p -> new HashMap<>())
                            .computeIfAbsent(k.group(), g -> new LinkedHashMap<>())
                            .put(k.partition(), OffsetRecordCodec.decodeValue(value));
                } catch (OffsetRecordCodec.DecodeException e) {
                    LOG.atError().addKeyValue("partition", name).addKeyValue("offset", offset)
                            .log("Skipped the transactional record at offset {} of {}: {}", offset, name,
                                    e.getMessage());
                }
            }

            @Override
            public void marker(long producerId, boolean commit, long offset) {
                Map<String, Map<TopicPartitionRef, CommittedOffset>> ended = transactional.remove(producerId);
                if (commit && ended != null) {
                    ended.forEach((g, o) -> loaded.computeIfAbsent(g, x -> new HashMap<>()).putAll(o));
                }
            }
        });
        PartitionState ps = new PartitionState();
        ps.records = records;
        ps.transactional.putAll(transactional);
        partitions.put(partition, ps);
        offsets.keySet().removeIf(g -> owned.partitionFor(g) == partition); // nothing of an earlier ownership stays
        groupMetadata.keySet().removeIf(g -> owned.partitionFor(g) == partition);
        loaded.forEach((g, o) -> offsets.put(g, Map.copyOf(o)));
        groupMetadata.putAll(groupValues);
        return new Loaded(Set.copyOf(loaded.keySet()), Map.copyOf(groups), Map.copyOf(transactional));
    }

    /** Forgets the offsets of the groups of {@code partition} (it was lost). */
    void drop(int partition) {
        partitions.remove(partition);
        offsets.keySet().removeIf(g -> owned.partitionFor(g) == partition);
        groupMetadata.keySet().removeIf(g -> owned.partitionFor(g) == partition);
    }

    /** The number of records of {@code partition} since its log start, as far as this broker knows. */
    long records(int partition) {
        PartitionState ps = partitions.get(partition);
        if (ps == null) {
            return 0;
        }
        synchronized (ps.lock) {
            return ps.records;
        }
    }

    // ---- cleanup ----

    /** Schedules a rewrite of {@code partition} if it is due (cheap when it is not). */
    void maybeRewrite(int partition) {
        PartitionState ps = partitions.get(partition);
        if (ps == null || ps.rewriting || records(partition) <= minRecords) {
            return;
        }
        ps.rewriting = true;
        timer.schedule(0, () -> {
            CompletableFuture<Long> f = CompletableFuture.completedFuture(null);
            try {
                f = rewriteIfDue(partition);
            } finally {
                f.whenComplete((r, e) -> ps.rewriting = false);
            }
        });
    }

    /** Checks every owned partition (the expiry pass). */
    void rewriteAllDue() {
        for (int p : owned.partitions()) {
            maybeRewrite(p);
        }
    }

    /**
     * Rewrites {@code partition} if it holds more than {@link #RECORDS_PER_OFFSET} records per live offset (and more
     * than the minimum) and no write of it is in flight.
     *
     * @return completes with the new log start once the old records are deleted, or with null if not due
     */
    CompletableFuture<Long> rewriteIfDue(int partition) {
        OwnedPartitions.Owned at = owned.get(partition);
        PartitionState ps = partitions.get(partition);
        if (at == null || ps == null) {
            return CompletableFuture.completedFuture(null);
        }
        List<CompletableFuture<AppendResult>> appends = new ArrayList<>();
        long before;
        int live = 0;
        synchronized (ps.lock) {
            if (ps.inFlight > 0 || !ps.transactional.isEmpty()) {
                // again after the next write, or once no transactional offsets wait for their marker in the log
                return CompletableFuture.completedFuture(null);
            }
            BatchBuilder b = BatchBuilder.create(timer.nowMs());
            List<ByteBuffer> batches = new ArrayList<>();
            List<Integer> sizes = new ArrayList<>();
            for (Map.Entry<String, Map<TopicPartitionRef, CommittedOffset>> g : offsets.entrySet()) {
                if (owned.partitionFor(g.getKey()) != partition) {
                    continue;
                }
                for (Map.Entry<TopicPartitionRef, CommittedOffset> o : g.getValue().entrySet()) {
                    b.add(OffsetRecordCodec.key(g.getKey(), o.getKey()), OffsetRecordCodec.value(o.getValue()));
                    live++;
                    if (b.size() == REWRITE_BATCH) {
                        sizes.add(b.size());
                        batches.add(b.build());
                        b = BatchBuilder.create(timer.nowMs());
                    }
                }
            }
            for (Map.Entry<String, byte[]> g : groupMetadata.entrySet()) {
                if (owned.partitionFor(g.getKey()) != partition) {
                    continue;
                }
                b.add(GroupMetadataCodec.key(g.getKey()), g.getValue());
                live++;
                if (b.size() == REWRITE_BATCH) {
                    sizes.add(b.size());
                    batches.add(b.build());
                    b = BatchBuilder.create(timer.nowMs());
                }
            }
            if (b.size() > 0) {
                sizes.add(b.size());
                batches.add(b.build());
            }
            before = ps.records;
            if (before <= Math.max(minRecords, RECORDS_PER_OFFSET * live)) {
                return CompletableFuture.completedFuture(null);
            }
            LOG.info("Rewriting the {} live offsets and groups of {}-{} at its end: it holds {} records", live, TOPIC, partition,
                    before);
            for (int i = 0; i < batches.size(); i++) {
                appends.add(append(at.log(), batches.get(i)));
                ps.records += sizes.get(i);
            }
        }
        int kept = live;
        CompletableFuture<Long> start = appends.isEmpty()
                ? CompletableFuture.completedFuture(at.log().offsets().highWatermark())
                : CompletableFuture.allOf(appends.toArray(CompletableFuture[]::new))
                        .thenApply(v -> appends.get(0).join().baseOffset());
        return start.thenCompose(s -> {
            if (!owned.ownedAt(partition, at.leaderEpoch())) {
                return CompletableFuture.<Long>failedFuture(new NotCoordinatorException(TOPIC + "-" + partition
                        + " was given up during its rewrite"));
            }
            return at.log().deleteRecordsBefore(s).thenApply(done -> {
                synchronized (ps.lock) {
                    ps.records -= before;
                }
                return done;
            });
        }).whenComplete((s, e) -> {
            if (e != null) {
                LOG.warn("Could not rewrite {}-{}: {}; its records stay, the next pass retries", TOPIC, partition,
                        e.toString());
            } else {
                LOG.info("Rewrote {}-{}: records before offset {} deleted, {} live offsets kept", TOPIC, partition, s,
                        kept);
            }
        });
    }
}
