package io.kaas.broker.cluster;

import io.kaas.api.cluster.LiveBroker;
import io.kaas.api.cluster.PartitionLeader;
import io.kaas.api.cluster.RegisteredEndpoint;
import java.util.Map;
import java.util.Optional;

/**
 * The cluster as this broker sees it now: the live brokers, the controller and the writer of every partition, kept
 * current from the cluster-state store's listeners. Lock-free reads from any thread, event loops included.
 */
public interface ClusterView {

    /** This broker's {@code node.id}. */
    int localNodeId();

    /** The brokers registered now, by node id (this one included once it has registered). */
    Map<Integer, LiveBroker> liveBrokers();

    /** The controller's node id, if one is elected. */
    Optional<Integer> controllerId();

    /** The writer and epoch of a partition, empty if the topic or partition is unknown. */
    Optional<PartitionLeader> leader(String topic, int partition);

    /** Broker {@code nodeId}'s endpoint on listener {@code listener}, if it is live and has that listener. */
    default Optional<RegisteredEndpoint> endpoint(int nodeId, String listener) {
        LiveBroker broker = liveBrokers().get(nodeId);
        return broker == null ? Optional.empty() : broker.registration().endpoint(listener);
    }
}
