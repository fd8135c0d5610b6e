package io.kaas.broker.admin;

import io.kaas.api.cluster.ClusterSession;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * What /ready answers: ready once the listeners are bound, the partitions assigned here are opened, and the cluster
 * store is connected with a valid session; otherwise the first reason it is not, as one line of text.
 */
public final class Readiness {

    private final BooleanSupplier listenersBound;
    private final BooleanSupplier partitionsOpened;
    private final Supplier<ClusterSession> session;

    /**
     * @param listenersBound   whether every Kafka listener is bound and serving
     * @param partitionsOpened whether every partition assigned to this broker is open
     * @param session          the cluster store's session, or null while the store is not open yet
     */
    public Readiness(BooleanSupplier listenersBound, BooleanSupplier partitionsOpened, Supplier<ClusterSession> session) {
        this.listenersBound = listenersBound;
        this.partitionsOpened = partitionsOpened;
        this.session = session;
    }

    /** Empty when ready; else why not. */
    public Optional<String> notReadyReason() {
        ClusterSession s = session.get();
        if (s == null) {
            return Optional.of("cluster store not connected yet");
        }
        if (!s.leaseValid()) {
            return Optional.of("cluster store session not valid (state " + s.state() + ")");
        }
        if (!listenersBound.getAsBoolean()) {
            return Optional.of("listeners not bound yet");
        }
        if (!partitionsOpened.getAsBoolean()) {
            return Optional.of("partitions assigned to this broker not all opened yet");
        }
        return Optional.empty();
    }
}
