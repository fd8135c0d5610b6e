package io.kaas.cluster.zookeeper;

import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.ClusterStateStoreProvider;
import io.kaas.api.cluster.ClusterStoreContext;
import io.kaas.api.plugin.SpiVersion;
import io.kaas.cluster.zookeeper.internal.ZooKeeperClusterStore;
import java.util.Set;

/**
 * The {@code zookeeper} cluster-state store: the cluster's coordination and metadata in Apache ZooKeeper through Apache
 * Curator, for several brokers on one shared volume. Selected with {@code cluster.store=zookeeper}; reads Kafka's
 * {@code zookeeper.*} settings ({@link #configKeys()}). Found by {@link java.util.ServiceLoader}; does no I/O until
 * {@link #open} is called.
 */
public final class ZooKeeperClusterStoreProvider implements ClusterStateStoreProvider {
    /** The value of {@code cluster.store} that selects this store. */
    public static final String NAME = "zookeeper";

    @Override
    public String name() {
        return NAME;
    }

    /**
     * Connects to the ensemble of {@code zookeeper.connect} and loads the cluster state.
     *
     * @throws io.kaas.api.plugin.PluginConfigException naming the key of a malformed setting
     * @throws io.kaas.api.cluster.ClusterStateException naming the connect string if no server answers within
     *                                                   {@code zookeeper.connection.timeout.ms}
     */
    @Override
    public ClusterStateStore open(ClusterStoreContext context) {
        return ZooKeeperClusterStore.open(context);
    }

    /** Kafka's names, as the broker hands them ({@code zookeeper.connect}...), full. */
    @Override
    public Set<String> configKeys() {
        return io.kaas.cluster.zookeeper.internal.ZooKeeperClusterStore.configKeys();
    }

    @Override
    public int spiVersion() {
        return SpiVersion.MAJOR;
    }
}
