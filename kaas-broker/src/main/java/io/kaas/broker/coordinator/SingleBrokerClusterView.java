package io.kaas.broker.coordinator;

import io.kaas.api.cluster.BrokerRegistration;
import io.kaas.api.cluster.LiveBroker;
import io.kaas.api.cluster.PartitionLeader;
import io.kaas.api.cluster.RegisteredEndpoint;
import io.kaas.broker.BrokerEndpoint;
import io.kaas.broker.cluster.ClusterView;
import io.kaas.broker.config.SecurityProtocol;
import io.kaas.broker.topic.Topic;
import io.kaas.broker.topic.TopicManager;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The cluster of a broker that is alone (the {@code files} store): this broker is the only live broker, the controller
 * and the writer of every partition of every topic it has open, at the epoch its log was opened with.
 */
public final class SingleBrokerClusterView implements ClusterView {
    private final int nodeId;
    private final TopicManager topics;
    private final Map<Integer, LiveBroker> live;

    /**
     * @param endpoints this broker's advertised endpoints, the first listener first
     * @param protocols the security protocol of each listener
     */
    public SingleBrokerClusterView(int nodeId, TopicManager topics, Collection<BrokerEndpoint> endpoints,
                                   Map<String, SecurityProtocol> protocols) {
        this.nodeId = nodeId;
        this.topics = topics;
        List<RegisteredEndpoint> registered = endpoints.stream()
                .map(e -> new RegisteredEndpoint(e.listenerName(), String.valueOf(protocols.get(e.listenerName())),
                        e.host(), e.port()))
                .toList();
        this.live = Map.of(nodeId, new LiveBroker(new BrokerRegistration(nodeId, registered, Optional.empty(),
                registered.get(0).host(), ProcessHandle.current().pid()), 0));
    }

    @Override
    public int localNodeId() {
        return nodeId;
    }

    @Override
    public Map<Integer, LiveBroker> liveBrokers() {
        return live;
    }

    @Override
    public Optional<Integer> controllerId() {
        return Optional.of(nodeId);
    }

    @Override
    public Optional<PartitionLeader> leader(String topic, int partition) {
        Optional<Topic> t = topics.topic(topic);
        if (t.isEmpty() || t.get().log(partition) == null) {
            return Optional.empty();
        }
        return Optional.of(new PartitionLeader(nodeId, t.get().log(partition).leaderEpoch(), 0));
    }
}
