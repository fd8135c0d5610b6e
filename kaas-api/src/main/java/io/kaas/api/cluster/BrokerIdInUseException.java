package io.kaas.api.cluster;

/** Another live broker is registered with this node id: this one must not start. */
public final class BrokerIdInUseException extends ClusterStateException {
    public BrokerIdInUseException(String message) {
        super(message);
    }
}
