package io.kaas.cluster.files;

import io.kaas.api.plugin.SpiVersion;
import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.ClusterStateStoreProvider;
import io.kaas.api.cluster.ClusterStoreContext;
import io.kaas.cluster.files.internal.FileClusterStore;
import java.io.IOException;
import java.util.Set;

/**
 * The {@code files} cluster-state store: JSON files under {@code <dataDir>/__cluster/}. Found by
 * {@link java.util.ServiceLoader}; does no I/O until {@link #open} is called.
 */
public final class FileClusterStoreProvider implements ClusterStateStoreProvider {
    /** The value of {@code cluster.store} that selects this store. */
    public static final String NAME = "files";

    /** The directory, under the data directory, that holds the store's files. */
    public static final String DIRECTORY = "__cluster";

    @Override
    public String name() {
        return NAME;
    }

    /**
     * Opens the store, creating {@code __cluster/} and the cluster id on first use, and loads every topic.
     *
     * @throws io.kaas.api.cluster.ClusterStateException naming the file if a state file is unreadable
     */
    @Override
    public ClusterStateStore open(ClusterStoreContext context) throws IOException {
        return FileClusterStore.open(context.dataDir().resolve(DIRECTORY), context.brokerId());
    }

    /** {@value #DIRECTORY}: no topic may be named as the store's own directory. */
    @Override
    public Set<String> reservedNames() {
        return Set.of(DIRECTORY);
    }

    @Override
    public int spiVersion() {
        return SpiVersion.MAJOR;
    }
}
