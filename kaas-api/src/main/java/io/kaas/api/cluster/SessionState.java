package io.kaas.api.cluster;

/** The state of this broker's session with the cluster-state store ({@link ClusterSession}). */
public enum SessionState {
    /** Connected; the registration, the election and the lease hold. */
    CONNECTED,
    /**
     * The connection is lost but the session may still be alive on the store's side: the broker cannot prove it owns
     * anything, so it acknowledges nothing until the session is {@link #CONNECTED} again or {@link #EXPIRED}.
     */
    SUSPENDED,
    /**
     * The session ended: the registration is gone and other brokers may take this one's partitions over. The store
     * opens a new session by itself, registers the broker again and enters the election again
     * ({@link ClusterListener#sessionChanged}).
     */
    EXPIRED,
    /** The store was closed. */
    CLOSED
}
