package io.kaas.cluster.files.internal;

import io.kaas.api.cluster.ClusterSession;
import io.kaas.api.cluster.SessionState;

/**
 * The session of the one broker of a files store: connected from open to close, with a lease that holds as long (no
 * other broker can use the data directory meanwhile, {@link DirectoryLock}), and no timeout.
 */
final class SingleBrokerSession implements ClusterSession {
    private volatile boolean closed;

    @Override
    public SessionState state() {
        return closed ? SessionState.CLOSED : SessionState.CONNECTED;
    }

    @Override
    public long leaseDeadlineNanos() {
        return Long.MAX_VALUE;
    }

    /** True until the store closes. */
    @Override
    public boolean leaseValid() {
        return !closed;
    }

    @Override
    public long sessionTimeoutMs() {
        return 0;
    }

    void close() {
        closed = true;
    }
}
