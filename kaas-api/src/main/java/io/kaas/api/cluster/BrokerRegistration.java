package io.kaas.api.cluster;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a broker registers about itself when it joins the cluster ({@link ClusterStateStore#registerBroker}).
 *
 * @param nodeId    its {@code node.id}
 * @param endpoints its advertised listeners, the first one first; never empty
 * @param rack      its {@code broker.rack}, if set
 * @param host      the host name it runs on, for operators (which broker holds what)
 * @param pid       its process id, for operators
 * @param version   its software version, for operators; empty when not known (a registration written by a broker
 *                  or a store that did not record it, e.g. during a rolling upgrade)
 * @param startedMs when it started (epoch ms), for its uptime; empty when not known, as {@code version}
 */
public record BrokerRegistration(int nodeId, List<RegisteredEndpoint> endpoints, Optional<String> rack, String host,
                                 long pid, Optional<String> version, OptionalLong startedMs) {
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
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(startedMs, "startedMs");
    }

    /** A registration without software version and start time (as written before they were recorded). */
    public BrokerRegistration(int nodeId, List<RegisteredEndpoint> endpoints, Optional<String> rack, String host,
                              long pid) {
        this(nodeId, endpoints, rack, host, pid, Optional.empty(), OptionalLong.empty());
    }

    /** The endpoint of listener {@code listener}, if the broker has one. */
    public Optional<RegisteredEndpoint> endpoint(String listener) {
        return endpoints.stream().filter(e -> e.listener().equals(listener)).findFirst();
    }
}
