package io.kaas.api.cluster;

/**
 * This broker's session with the cluster-state store, and the lease it gives: the time until which the broker may act
 * as the writer of the partitions assigned to it (acknowledge writes, delete or rewrite files). The lease is renewed by
 * each answered round trip to the store and ends, at the latest, one session timeout after the request of the last
 * answered round trip was sent: never later than the store's side can end the session, however long the broker was
 * paused. Thread-safe; {@link #leaseValid()} is lock-free and cheap enough for every acknowledgement.
 */
public interface ClusterSession {

    SessionState state();

    /**
     * The {@link System#nanoTime()} until which the lease holds; in the past when it does not. A store without
     * sessions (one broker) holds it forever and answers {@link Long#MAX_VALUE}.
     */
    long leaseDeadlineNanos();

    /**
     * Whether this broker may act as a writer now: connected, and the lease not ended. A store without sessions
     * overrides it to answer true (a deadline of {@link Long#MAX_VALUE} is not "forever" for {@code nanoTime}).
     */
    default boolean leaseValid() {
        return state() == SessionState.CONNECTED && System.nanoTime() - leaseDeadlineNanos() < 0;
    }

    /** The session timeout the store negotiated, in milliseconds (0 for a store without sessions). */
    long sessionTimeoutMs();
}
