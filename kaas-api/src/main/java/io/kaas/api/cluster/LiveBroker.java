package io.kaas.api.cluster;

import java.util.Objects;

/**
 * A broker registered now: its registration and the broker epoch the store gave that registration. The broker epoch
 * is unique to one registration and grows with every new one (a restart of the same node registers anew and gets a
 * higher epoch; in ZooKeeper it is the registration node's creation zxid, as in Kafka), so a partition assigned to
 * an earlier registration of the same node id is known to have lost its writer.
 */
public record LiveBroker(BrokerRegistration registration, long brokerEpoch) {
    public LiveBroker {
        Objects.requireNonNull(registration, "registration");
    }

    public int nodeId() {
        return registration.nodeId();
    }
}
