package io.kaas.cluster.zookeeper.internal;

import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.ClusterStoreContext;
import io.kaas.cluster.zookeeper.ZooKeeperClusterStoreProvider;
import io.kaas.plugin.tck.ClusterCoordinationTck;

/** The coordination TCK against the zookeeper store: several brokers' stores on one real ZooKeeper server. */
class ZooKeeperCoordinationTckTest extends ClusterCoordinationTck {
    private final String connect = TestZooKeeper.newChroot();

    @Override
    protected ClusterStateStore openStore(int nodeId) {
        return new ZooKeeperClusterStoreProvider().open(new ClusterStoreContext(dataDir, TestZooKeeper.config(connect), nodeId));
    }

    @Override
    protected boolean supportsSeveralBrokers() {
        return true;
    }

    @Override
    protected void expireSession(ClusterStateStore target) throws Exception {
        TestZooKeeper.expire((ZooKeeperClusterStore) target);
    }
}
