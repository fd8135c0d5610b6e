package io.kaas.broker.it.interbroker;

import io.kaas.api.cluster.BrokerRegistration;
import io.kaas.api.cluster.LiveBroker;
import io.kaas.api.cluster.PartitionLeader;
import io.kaas.api.cluster.RegisteredEndpoint;
import io.kaas.broker.cluster.ClusterView;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The test's cluster view over brokers it started itself (each with its own files store): which broker is at which
 * endpoint, and which broker writes each partition, as the test sets them. Thread-safe.
 */
final class TestClusterView implements ClusterView {
    private final int localNodeId;
    private final Map<Integer, LiveBroker> brokers = new ConcurrentHashMap<>();
    private final Map<String, PartitionLeader> leaders = new ConcurrentHashMap<>();
    private final Map<String, PartitionLeader> topicLeaders = new ConcurrentHashMap<>();

    TestClusterView(int localNodeId) {
        this.localNodeId = localNodeId;
    }

    /** Broker {@code nodeId} is live with one endpoint, {@code listener} at 127.0.0.1:{@code port}. */
    TestClusterView broker(int nodeId, String listener, String protocol, int port) {
        brokers.put(nodeId, new LiveBroker(new BrokerRegistration(nodeId,
            List.of(new RegisteredEndpoint(listener, protocol, "127.0.0.1", port)), Optional.empty(), "127.0.0.1", 1),
            nodeId * 100L));
        return this;
    }

    TestClusterView gone(int nodeId) {
        brokers.remove(nodeId);
        return this;
    }

    /** {@code topic}-{@code partition} is written by {@code nodeId} ({@link PartitionLeader#NONE}: by none). */
    TestClusterView leader(String topic, int partition, int nodeId) {
        leaders.put(topic + "-" + partition, nodeId == PartitionLeader.NONE ? PartitionLeader.none(1)
            : new PartitionLeader(nodeId, 1, nodeId * 100L));
        return this;
    }

    /** Every partition of {@code topic} is written by {@code nodeId}. */
    TestClusterView topicLeader(String topic, int nodeId) {
        topicLeaders.put(topic, nodeId == PartitionLeader.NONE ? PartitionLeader.none(1)
            : new PartitionLeader(nodeId, 1, nodeId * 100L));
        return this;
    }

    @Override
    public int localNodeId() {
        return localNodeId;
    }

    @Override
    public Map<Integer, LiveBroker> liveBrokers() {
        return Map.copyOf(brokers);
    }

    @Override
    public Optional<Integer> controllerId() {
        return Optional.of(localNodeId);
    }

    @Override
    public Optional<PartitionLeader> leader(String topic, int partition) {
        PartitionLeader l = leaders.get(topic + "-" + partition);
        return Optional.ofNullable(l != null ? l : topicLeaders.get(topic));
    }
}
