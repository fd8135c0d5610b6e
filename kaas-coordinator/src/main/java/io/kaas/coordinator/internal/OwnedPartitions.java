package io.kaas.coordinator.internal;

import io.kaas.api.storage.PartitionLog;
import io.kaas.wire.protocol.Errors;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The partitions of one coordinator's internal topic ({@code __consumer_offsets} or {@code __transaction_state})
 * this broker owns now, each with the log it was handed and the leader epoch it was opened at, and whether its state
 * is still loading or failed to load. Keys (group ids, transactional ids) map to partitions as Kafka's
 * {@code Utils.abs(key.hashCode()) % partitions}. Thread-safe.
 */
public final class OwnedPartitions {
    /** Where a partition's state is. */
    public enum Phase { LOADING, LOADED, FAILED }

    /** An owned partition: its log, its leader epoch, its phase. */
    public record Owned(PartitionLog log, int leaderEpoch, Phase phase) {
    }

    private final String topic;
    private final java.util.function.IntSupplier partitionCount;
    private final Map<Integer, Owned> owned = new ConcurrentHashMap<>();

    /**
     * @param topic          the internal topic's name (for messages)
     * @param partitionCount its partition count (the topic's once it exists, else the configured one)
     */
    public OwnedPartitions(String topic, java.util.function.IntSupplier partitionCount) {
        this.topic = topic;
        this.partitionCount = partitionCount;
    }

    public String topic() {
        return topic;
    }

    public int partitionCount() {
        return partitionCount.getAsInt();
    }

    /** Kafka's placement: {@code Utils.abs(key.hashCode()) % partitions} ({@code Integer.MIN_VALUE} maps to 0). */
    public int partitionFor(String key) {
        int h = key.hashCode();
        return (h == Integer.MIN_VALUE ? 0 : Math.abs(h)) % partitionCount();
    }

    /** Partition {@code partition} is this broker's from now on, loading. */
    public void loading(int partition, PartitionLog log, int leaderEpoch) {
        owned.put(partition, new Owned(log, leaderEpoch, Phase.LOADING));
    }

    /** Its state is loaded (if it is still owned at {@code leaderEpoch}). */
    public void loaded(int partition, int leaderEpoch) {
        owned.computeIfPresent(partition, (p, o) -> o.leaderEpoch() == leaderEpoch
                ? new Owned(o.log(), o.leaderEpoch(), Phase.LOADED) : o);
    }

    /** Its state could not be loaded (if it is still owned at {@code leaderEpoch}). */
    public void failed(int partition, int leaderEpoch) {
        owned.computeIfPresent(partition, (p, o) -> o.leaderEpoch() == leaderEpoch
                ? new Owned(o.log(), o.leaderEpoch(), Phase.FAILED) : o);
    }

    /**
     * Partition {@code partition} is no longer this broker's.
     *
     * @return true if it was
     */
    public boolean lost(int partition) {
        return owned.remove(partition) != null;
    }

    /** The owned partition, or null. */
    public Owned get(int partition) {
        return owned.get(partition);
    }

    /** Whether {@code partition} is owned and at {@code leaderEpoch}. */
    public boolean ownedAt(int partition, int leaderEpoch) {
        Owned o = owned.get(partition);
        return o != null && o.leaderEpoch() == leaderEpoch;
    }

    /** The owned partitions, ascending. */
    public Set<Integer> partitions() {
        return new TreeSet<>(owned.keySet());
    }

    /**
     * The error a request for {@code key} gets before anything else: NOT_COORDINATOR if its partition is not this
     * broker's, COORDINATOR_LOAD_IN_PROGRESS while it loads, COORDINATOR_NOT_AVAILABLE if it failed to load, else
     * NONE.
     */
    public short error(String key) {
        Owned o = owned.get(partitionFor(key));
        if (o == null) {
            return Errors.NOT_COORDINATOR;
        }
        return switch (o.phase()) {
            case LOADING -> Errors.COORDINATOR_LOAD_IN_PROGRESS;
            case FAILED -> Errors.COORDINATOR_NOT_AVAILABLE;
            case LOADED -> Errors.NONE;
        };
    }

    /**
     * The log to write partition {@code partition} to.
     *
     * @throws NotCoordinatorException if the partition is not owned (lost meanwhile)
     */
    public PartitionLog log(int partition) {
        Owned o = owned.get(partition);
        if (o == null) {
            throw new NotCoordinatorException(topic + "-" + partition + " is not owned by this broker");
        }
        return o.log();
    }
}
