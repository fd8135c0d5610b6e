package io.kaas.api.cluster;

/** The store could not read or durably write cluster state. Maps to UNKNOWN_SERVER_ERROR (-1) or is fatal at start-up. */
public class ClusterStateException extends RuntimeException {
    public ClusterStateException(String message, Throwable cause) {
        super(message, cause);
    }

    public ClusterStateException(String message) {
        super(message);
    }
}
