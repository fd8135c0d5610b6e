package io.kaas.cluster.zookeeper.internal;

import io.kaas.api.cluster.ClusterStateStoreProvider;
import io.kaas.api.plugin.PluginConfig;
import io.kaas.cluster.zookeeper.ZooKeeperClusterStoreProvider;
import io.kaas.plugin.tck.ClusterStateStoreTck;

/** The cluster-state TCK against the zookeeper store on a real ZooKeeper server (a chroot of its own per test). */
class ZooKeeperClusterStoreTckTest extends ClusterStateStoreTck {
    private final String connect = TestZooKeeper.newChroot();

    @Override
    protected ClusterStateStoreProvider provider() {
        return new ZooKeeperClusterStoreProvider();
    }

    @Override
    protected PluginConfig config() {
        return TestZooKeeper.config(connect);
    }

    @Override
    protected boolean keepsCommittedOffsets() {
        return false;
    }
}
