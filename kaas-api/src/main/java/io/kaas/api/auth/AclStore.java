package io.kaas.api.auth;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Durable ACL bindings, handed to an authorizer in its {@link AuthorizerContext}; the broker's is backed
 * by the cluster-state store ({@link io.kaas.api.cluster.ClusterStateStore#acls()}), so ACLs survive a
 * restart. Thread-safe; methods may block on I/O (never called on a network event loop). Each mutation
 * is all or nothing and durable when it returns; a failure throws
 * {@link io.kaas.api.cluster.ClusterStateException} and leaves the previous bindings in force.
 */
public interface AclStore {
    /** Every stored binding, each once, in no particular order. A snapshot. */
    Collection<AclBinding> acls();

    /** Stores the bindings not stored yet (a binding stored already is no change). */
    void addAcls(Collection<AclBinding> bindings);

    /** Removes the bindings that are stored (others are ignored). */
    void removeAcls(Collection<AclBinding> bindings);

    /**
     * A store that keeps its bindings in memory only (lost when the process ends): for tests, tools,
     * and authorizers run without a cluster store.
     */
    static AclStore inMemory() {
        return new AclStore() {
            private volatile Set<AclBinding> bindings = Set.of();

            @Override
            public Collection<AclBinding> acls() {
                return List.copyOf(bindings);
            }

            @Override
            public synchronized void addAcls(Collection<AclBinding> added) {
                Set<AclBinding> next = new LinkedHashSet<>(bindings);
                added.forEach(b -> next.add(Objects.requireNonNull(b, "binding")));
                bindings = Set.copyOf(next);
            }

            @Override
            public synchronized void removeAcls(Collection<AclBinding> removed) {
                Set<AclBinding> next = new LinkedHashSet<>(bindings);
                next.removeAll(removed);
                bindings = Set.copyOf(next);
            }
        };
    }
}
