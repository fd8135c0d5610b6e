package io.kaas.broker.auth;

import io.kaas.api.auth.AclBinding;
import io.kaas.api.auth.AclStore;
import io.kaas.api.cluster.ClusterStateStore;
import java.util.Collection;
import java.util.Objects;

/** The authorizer's {@link AclStore}: the ACL section of the cluster-state store. */
final class ClusterAclStore implements AclStore {
    private final ClusterStateStore store;

    ClusterAclStore(ClusterStateStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    @Override
    public Collection<AclBinding> acls() {
        return store.acls();
    }

    @Override
    public void addAcls(Collection<AclBinding> bindings) {
        store.addAcls(bindings);
    }

    @Override
    public void removeAcls(Collection<AclBinding> bindings) {
        store.removeAcls(bindings);
    }
}
