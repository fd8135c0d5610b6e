package io.kaas.api.cluster;

/**
 * A write that only the controller may make was refused: the term it named has ended (another broker was elected, or
 * this broker's session ended). Nothing of the write is stored.
 */
public final class NotControllerException extends ClusterStateException {
    public NotControllerException(String message) {
        super(message);
    }
}
