package io.kaas.plugin.tck;

import io.kaas.api.cluster.ClusterStateStoreProvider;
import io.kaas.cluster.files.FileClusterStoreProvider;

/** The TCK's own check against the file cluster-state store. */
class FileClusterStoreTckTest extends ClusterStateStoreTck {
    @Override
    protected ClusterStateStoreProvider provider() {
        return new FileClusterStoreProvider();
    }
}
