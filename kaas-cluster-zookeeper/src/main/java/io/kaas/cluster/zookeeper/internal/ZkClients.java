package io.kaas.cluster.zookeeper.internal;

import io.kaas.api.cluster.ClusterStateException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;

/** Makes the store's Curator clients from its settings. */
final class ZkClients {
    private ZkClients() {
    }

    /**
     * A started client connected to {@code connectString}.
     *
     * @throws ClusterStateException naming the connect string if no server answers within the connection timeout
     */
    static CuratorFramework connect(ZkConfig config, String connectString) {
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
                .connectString(connectString)
                .sessionTimeoutMs(config.sessionTimeoutMs)
                .connectionTimeoutMs(config.connectionTimeoutMs)
                .retryPolicy(new BoundedExponentialBackoffRetry(100, 1000, 3))
                // the tracker would rewrite the connect string from the ensemble's config and lose the chroot
                .ensembleTracker(false)
                .zkClientConfig(config.clientConfig());
        if (config.setAcl) {
            builder.aclProvider(new SecureAcls());
        }
        CuratorFramework client = builder.build();
        client.start();
        boolean connected;
        try {
            connected = client.blockUntilConnected(config.connectionTimeoutMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            connected = false;
        }
        if (!connected) {
            client.close();
            throw new ClusterStateException("Could not connect to ZooKeeper at " + connectString + " (zookeeper.connect) within "
                    + config.connectionTimeoutMs + " ms (zookeeper.connection.timeout.ms)");
        }
        return client;
    }

    /** Creates the chroot of {@code zookeeper.connect} if it is missing, as Kafka does. */
    static void ensureChroot(ZkConfig config) {
        if (config.connect.chroot().isEmpty()) {
            return;
        }
        String chroot = config.connect.chroot().get();
        CuratorFramework client = connect(config, config.connect.servers());
        try {
            client.create().creatingParentsIfNeeded().forPath(chroot);
        } catch (KeeperException.NodeExistsException e) {
            // made before
        } catch (Exception e) {
            throw new ClusterStateException("Could not create the chroot " + chroot + " in ZooKeeper at "
                    + config.connect.servers() + ": " + e, e);
        } finally {
            client.close();
        }
    }

    /**
     * Kafka's ACLs with {@code zookeeper.set.acl=true}: everything to the creator, read to the world, except the SCRAM
     * credentials, which nobody else may read.
     */
    static final class SecureAcls implements ACLProvider {
        private static final List<ACL> DEFAULT = concat(ZooDefs.Ids.CREATOR_ALL_ACL, ZooDefs.Ids.READ_ACL_UNSAFE);

        private static List<ACL> concat(List<ACL> a, List<ACL> b) {
            List<ACL> out = new ArrayList<>(a);
            out.addAll(b);
            // not List.copyOf: ZooKeeper asks the list whether it contains null, which an immutable list refuses
            return java.util.Collections.unmodifiableList(out);
        }

        @Override
        public List<ACL> getDefaultAcl() {
            return DEFAULT;
        }

        @Override
        public List<ACL> getAclForPath(String path) {
            return path != null && path.startsWith(ZkPaths.SCRAM) ? ZooDefs.Ids.CREATOR_ALL_ACL : DEFAULT;
        }
    }
}
