package io.kaas.broker.request;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * Who this broker is, as ApiVersions v5+ checks it (KIP-1242): the cluster id Metadata reports and this broker's
 * node id. A client that names another cluster or node is on a misrouted connection.
 *
 * @param clusterId the cluster id (read when a request names one: the cluster store may set it after start-up)
 * @param nodeId    this broker's {@code node.id}
 */
public record BrokerIdentity(Supplier<String> clusterId, int nodeId) {

    /** No identity known: nothing is checked (registries built without a broker, in tests). */
    public static final BrokerIdentity UNKNOWN = new BrokerIdentity(() -> null, -1);

    public BrokerIdentity {
        Objects.requireNonNull(clusterId, "clusterId");
    }

    /** Whether this identity is {@link #UNKNOWN}, so there is nothing to check a request against. */
    boolean unknown() {
        return nodeId < 0;
    }
}
