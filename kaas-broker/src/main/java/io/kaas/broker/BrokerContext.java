package io.kaas.broker;

import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.storage.StorageEngine;
import io.kaas.broker.auth.AccessGate;
import io.kaas.broker.cluster.ClusterMember;
import io.kaas.broker.config.BrokerConfig;
import java.time.Clock;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The running broker's services, as handlers and managers see them. Implemented by the broker's
 * lifecycle class; every accessor is valid from before the first request is served until shutdown.
 */
public interface BrokerContext {

    BrokerConfig config();

    ClusterStateStore clusterStore();

    StorageEngine storageEngine();

    Clock clock();

    /** For timers (long-poll expiry, periodic work). Tasks must not block for long. */
    ScheduledExecutorService scheduler();

    /** The endpoint clients are told to connect to (advertised listener, with the bound port). */
    BrokerEndpoint advertisedEndpoint();

    /**
     * The endpoint clients connected on listener {@code listenerName} are told to connect to, so a client
     * is answered with the addresses of the listener it uses; the first listener's when none is advertised
     * under that name.
     */
    default BrokerEndpoint advertisedEndpoint(String listenerName) {
        return advertisedEndpoint();
    }

    /** This broker as a member of the cluster: its view of live brokers, partition writers and the controller. */
    ClusterMember cluster();

    /** The authorizer the request pipeline asks ({@link AccessGate#ALLOW_ALL} for {@code authorizer=none}). */
    AccessGate accessGate();

    /**
     * Why this broker's TLS listeners cannot take {@code configs} (its own dynamic broker configs after a change,
     * {@code listener.name.<l>.ssl.keystore.location} and the like), in Kafka's words, or null if they can.
     */
    default String listenerTlsProblem(java.util.Map<String, String> configs) {
        return null;
    }

    default int nodeId() {
        return config().nodeId();
    }

    default String clusterId() {
        return clusterStore().clusterId();
    }
}
