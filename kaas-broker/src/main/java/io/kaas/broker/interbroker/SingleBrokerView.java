package io.kaas.broker.interbroker;

import io.kaas.api.cluster.BrokerRegistration;
import io.kaas.api.cluster.LiveBroker;
import io.kaas.api.cluster.PartitionLeader;
import io.kaas.api.cluster.RegisteredEndpoint;
import io.kaas.broker.cluster.ClusterView;
import io.kaas.broker.topic.Topic;
import io.kaas.broker.topic.TopicManager;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The cluster of a broker alone (the {@code files} store): this broker is live with its advertised endpoints and
 * writes every partition of every topic it has, at epoch 0. What the inter-broker wiring sees until the broker's
 * cluster membership gives it the store's view. Thread-safe.
 */
public final class SingleBrokerView implements ClusterView {
    private final int nodeId;
    private final TopicManager topics;
    private final LiveBroker self;

    public SingleBrokerView(int nodeId, List<RegisteredEndpoint> endpoints, TopicManager topics) {
        this.nodeId = nodeId;
        this.topics = topics;
        this.self = new LiveBroker(new BrokerRegistration(nodeId, endpoints, Optional.empty(), "localhost",
            ProcessHandle.current().pid()), 0);
    }

    @Override
    public int localNodeId() {
        return nodeId;
    }

    @Override
    public Map<Integer, LiveBroker> liveBrokers() {
        return Map.of(nodeId, self);
    }

    @Override
    public Optional<Integer> controllerId() {
        return Optional.of(nodeId);
    }

    @Override
    public Optional<PartitionLeader> leader(String topic, int partition) {
        Optional<Topic> t = topics.topic(topic);
        return t.isPresent() && partition >= 0 && partition < t.get().partitionCount()
            ? Optional.of(new PartitionLeader(nodeId, 0, 0)) : Optional.empty();
    }
}
