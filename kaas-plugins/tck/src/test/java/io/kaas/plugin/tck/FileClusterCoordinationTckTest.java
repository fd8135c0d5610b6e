package io.kaas.plugin.tck;

import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.ClusterStoreContext;
import io.kaas.api.plugin.PluginConfig;
import io.kaas.cluster.files.FileClusterStoreProvider;
import java.io.IOException;

/** The coordination contract against the file cluster-state store: one broker at a time on a data directory. */
class FileClusterCoordinationTckTest extends ClusterCoordinationTck {
    @Override
    protected ClusterStateStore openStore(int nodeId) throws IOException {
        return new FileClusterStoreProvider().open(new ClusterStoreContext(dataDir, PluginConfig.empty(), nodeId));
    }

    @Override
    protected boolean supportsSeveralBrokers() {
        return false;
    }
}
