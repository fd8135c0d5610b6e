package io.kaas.api.cluster;

import io.kaas.api.plugin.BackendProvider;
import java.io.IOException;

/**
 * Describes and creates a cluster-state store. Found by {@link java.util.ServiceLoader}; public no-arg
 * constructor; does no I/O when constructed. Selected by {@link #name()} through {@code cluster.store}.
 */
public interface ClusterStateStoreProvider extends BackendProvider {
    /** Opens the store. Called once per broker start, never on a network thread; may block. */
    ClusterStateStore open(ClusterStoreContext context) throws IOException;
}
