package io.kaas.api.cluster;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a broker registers about itself when it joins the cluster ({@link ClusterStateStore#registerBroker}).
 *
 * @param nodeId    its {@code node.id}
 * @param endpoints its advertised listeners, the first one first; never empty
 * @param rack      its {@code broker.rack}, if set
 * @param host      the host name it runs on, for operators (which broker holds what)
 * @param pid       its process id, for operators
 */
public record BrokerRegistration(int nodeId, List<RegisteredEndpoint> endpoints, Optional<String> rack, String host,
                                 long pid) {
    public BrokerRegistration {
        if (nodeId < 0) {
            throw new IllegalArgumentException("negative node id " + nodeId);
        }
        endpoints = List.copyOf(endpoints);
        if (endpoints.isEmpty()) {
            throw new IllegalArgumentException("a broker registers at least one endpoint");
        }
        Objects.requireNonNull(rack, "rack");
        Objects.requireNonNull(host, "host");
    }

    /** The endpoint of listener {@code listener}, if the broker has one. */
    public Optional<RegisteredEndpoint> endpoint(String listener) {
        return endpoints.stream().filter(e -> e.listener().equals(listener)).findFirst();
    }
}
