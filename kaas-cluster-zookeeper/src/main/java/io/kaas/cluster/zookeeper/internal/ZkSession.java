package io.kaas.cluster.zookeeper.internal;

import io.kaas.api.cluster.ClusterSession;
import io.kaas.api.cluster.SessionState;

/**
 * The broker's ZooKeeper session and its lease. The lease ends at the latest 0.9 session timeouts after the send time
 * of the last answered renewal: the answer proves the server heard from the session after that send time, so the
 * server cannot expire it before one whole session timeout after it (the 10 % margin covers clocks that run at
 * slightly different rates). A pause of the broker does not stretch it: {@link System#nanoTime()} goes on meanwhile.
 * {@link #end} (connection suspended, session expired, store closed) ends it at once, and a renewal sent before an end
 * does not count after it. Lock-free reads.
 */
final class ZkSession implements ClusterSession {
    /** The share of the session timeout a lease lasts after the renewal was sent. */
    static final double LEASE_SHARE = 0.9;

    private volatile SessionState state = SessionState.EXPIRED;
    private volatile long deadline = System.nanoTime() - 1;
    private volatile long timeoutMs;
    private long generation;

    ZkSession(long timeoutMs) {
        this.timeoutMs = timeoutMs;
    }

    @Override
    public SessionState state() {
        return state;
    }

    @Override
    public long leaseDeadlineNanos() {
        return deadline;
    }

    @Override
    public long sessionTimeoutMs() {
        return timeoutMs;
    }

    /** A token to hand {@link #renewed} for a renewal about to be sent. */
    synchronized long generation() {
        return generation;
    }

    /**
     * A renewal sent at {@code sentNanos} (when {@link #generation} answered {@code gen}) was answered; the server
     * negotiated {@code negotiatedTimeoutMs}.
     */
    synchronized void renewed(long gen, long sentNanos, long negotiatedTimeoutMs) {
        if (gen != generation) {
            return;
        }
        if (negotiatedTimeoutMs > 0) {
            timeoutMs = negotiatedTimeoutMs;
        }
        long next = sentNanos + (long) (timeoutMs * LEASE_SHARE * 1_000_000L);
        if (next - deadline > 0) {
            deadline = next;
        }
    }

    /** Ends the lease now and enters {@code newState}. */
    synchronized void end(SessionState newState) {
        generation++;
        deadline = System.nanoTime() - 1;
        state = newState;
    }

    /** The session is usable again (the lease holds from the next renewal on). */
    synchronized void connected() {
        if (state != SessionState.CLOSED) {
            state = SessionState.CONNECTED;
        }
    }
}
