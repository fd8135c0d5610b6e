package io.kaas.broker.cluster;

import io.kaas.api.cluster.ClusterListener;
import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.ControllerTerm;
import io.kaas.api.cluster.LiveBroker;
import io.kaas.api.cluster.PartitionLeader;
import io.kaas.api.cluster.SessionState;
import io.kaas.api.cluster.TopicAssignment;
import io.kaas.api.cluster.TopicRecord;
import io.kaas.api.storage.PartitionKey;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The {@link ClusterView} kept from the cluster-state store: snapshots of its live brokers, controller, topics and
 * assignments, taken again on each change the store reports. Reads are one volatile read and a map lookup.
 */
public final class StoreClusterView implements ClusterView, ClusterListener {

    /** What one refresh saw, read as a whole. */
    private record Snapshot(Map<Integer, LiveBroker> brokers, Map<UUID, TopicAssignment> byId, Map<String, TopicAssignment> byName,
                            Map<String, TopicRecord> topics) {
    }

    private final ClusterStateStore store;
    private final int localNodeId;
    private volatile Snapshot snapshot;

    public StoreClusterView(ClusterStateStore store, int localNodeId) {
        this.store = store;
        this.localNodeId = localNodeId;
        refresh();
    }

    /** Takes the store's state again (also what every listener call does). */
    public synchronized void refresh() {
        Map<UUID, TopicAssignment> byId = Map.copyOf(store.assignments());
        Map<String, TopicAssignment> byName = new HashMap<>();
        byId.values().forEach(a -> byName.put(a.topic(), a));
        Map<String, TopicRecord> topics = new HashMap<>();
        store.topics().forEach(t -> topics.put(t.name(), t));
        snapshot = new Snapshot(Map.copyOf(store.liveBrokers()), byId, Map.copyOf(byName),
            Map.copyOf(topics));
    }

    @Override
    public int localNodeId() {
        return localNodeId;
    }

    @Override
    public Map<Integer, LiveBroker> liveBrokers() {
        return snapshot.brokers();
    }

    @Override
    public Optional<Integer> controllerId() {
        // The store answers from memory, and the controller changes without a listener call of its own.
        return store.controller().map(ControllerTerm::controllerId);
    }

    @Override
    public Optional<PartitionLeader> leader(String topic, int partition) {
        Snapshot s = snapshot;
        TopicRecord record = s.topics().get(topic);
        if (record == null || partition < 0 || partition >= record.partitions()) {
            return Optional.empty();
        }
        TopicAssignment a = s.byName().get(topic);
        if (a == null || !a.topicId().equals(record.topicId()) || partition >= a.partitions().size()) {
            return Optional.of(PartitionLeader.none(0));
        }
        return Optional.of(a.partition(partition));
    }

    /**
     * The partition's writer if that registration is live now; otherwise {@link PartitionLeader#NONE} at the stored
     * epoch (what Metadata answers as LEADER_NOT_AVAILABLE). Empty if the topic or partition is unknown.
     */
    public Optional<PartitionLeader> liveLeader(String topic, int partition) {
        Snapshot s = snapshot;
        return leader(topic, partition).map(l -> AssignmentPlan.isLiveWriter(l, s.brokers())
            ? l : PartitionLeader.none(l.leaderEpoch()));
    }

    /**
     * What Metadata answers for a partition: its writer (if live, and reachable on {@code listener}) and epoch, or
     * leader -1 with LEADER_NOT_AVAILABLE (no writer) or LISTENER_NOT_FOUND (the writer has no such listener, when
     * {@code listenerErrors}, as Kafka from Metadata v6) in its place.
     *
     * @param leader the leader's node id or -1
     * @param epoch  the partition's leader epoch
     * @param error  NONE, LEADER_NOT_AVAILABLE or LISTENER_NOT_FOUND
     */
    public record LeaderInfo(int leader, int epoch, short error) {
    }

    /** The {@link LeaderInfo} of a known partition ({@code partition} below the topic's count). */
    public LeaderInfo leaderInfo(String topic, int partition, String listener, boolean listenerErrors) {
        PartitionLeader l = liveLeader(topic, partition).orElse(PartitionLeader.none(0));
        if (!l.hasLeader()) {
            return new LeaderInfo(PartitionLeader.NONE, l.leaderEpoch(), io.kaas.wire.protocol.Errors.LEADER_NOT_AVAILABLE);
        }
        if (listener != null && endpoint(l.leader(), listener).isEmpty()) {
            return new LeaderInfo(PartitionLeader.NONE, l.leaderEpoch(), listenerErrors
                ? io.kaas.wire.protocol.Errors.LISTENER_NOT_FOUND : io.kaas.wire.protocol.Errors.LEADER_NOT_AVAILABLE);
        }
        return new LeaderInfo(l.leader(), l.leaderEpoch(), io.kaas.wire.protocol.Errors.NONE);
    }

    /** The live brokers with an endpoint on {@code listener}, by node id. */
    public java.util.SortedMap<Integer, io.kaas.api.cluster.RegisteredEndpoint> endpoints(String listener) {
        java.util.SortedMap<Integer, io.kaas.api.cluster.RegisteredEndpoint> out = new java.util.TreeMap<>();
        snapshot.brokers().forEach((id, b) -> b.registration().endpoint(listener).ifPresent(e -> out.put(id, e)));
        return out;
    }

    /** Broker {@code nodeId}'s rack, if it is live and has one. */
    public Optional<String> rack(int nodeId) {
        LiveBroker b = snapshot.brokers().get(nodeId);
        return b == null ? Optional.empty() : b.registration().rack();
    }

    /** The stored writer of {@code key} (by topic id), or null. Lock-free, for the fence. */
    PartitionLeader assigned(PartitionKey key) {
        TopicAssignment a = snapshot.byId().get(key.topicId());
        return a == null || key.partition() >= a.partitions().size() ? null : a.partition(key.partition());
    }

    /** Every topic's assignment by topic id, as last seen. */
    Map<UUID, TopicAssignment> assignments() {
        return snapshot.byId();
    }

    @Override
    public void brokersChanged() {
        refresh();
    }

    @Override
    public void topicsChanged() {
        refresh();
    }

    @Override
    public void assignmentsChanged() {
        refresh();
    }

    @Override
    public void sessionChanged(SessionState state) {
        refresh();
    }
}
