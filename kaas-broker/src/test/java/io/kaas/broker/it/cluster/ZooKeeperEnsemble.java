package io.kaas.broker.it.cluster;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;

/**
 * A real ZooKeeper ensemble of three servers in this JVM (curator-test's TestingCluster), every server on 127.0.0.1
 * with ports of its own, for tests that lose one server or the quorum and bring them back.
 */
public final class ZooKeeperEnsemble implements AutoCloseable {
    private final TestingCluster cluster;
    private final List<InstanceSpec> specs;

    private ZooKeeperEnsemble(TestingCluster cluster, List<InstanceSpec> specs) {
        this.cluster = cluster;
        this.specs = specs;
    }

    /** Starts {@code servers} servers with data under {@code dir}; returns once the ensemble is started. */
    public static ZooKeeperEnsemble start(Path dir, int servers) throws Exception {
        List<InstanceSpec> specs = new ArrayList<>();
        for (int i = 1; i <= servers; i++) {
            // the server's myid file is written into its data directory, which must exist
            specs.add(new InstanceSpec(java.nio.file.Files.createDirectories(dir.resolve("zk-" + i)).toFile(), InstanceSpec.getRandomPort(),
                    InstanceSpec.getRandomPort(), InstanceSpec.getRandomPort(), true, i, 2000, 0,
                    Map.of("admin.enableServer", "false"), "127.0.0.1"));
        }
        TestingCluster cluster = new TestingCluster(specs);
        cluster.start();
        return new ZooKeeperEnsemble(cluster, specs);
    }

    /** The connect string of every server, with {@code chroot} ("/name") after it. */
    public String connect(String chroot) {
        return cluster.getConnectString() + chroot;
    }

    /** Stops server {@code index} (0-based) as a crash would. */
    public void kill(int index) throws Exception {
        cluster.killServer(specs.get(index));
    }

    /** Restarts a server {@link #kill}ed before, over its data. */
    public void restart(int index) throws Exception {
        cluster.restartServer(specs.get(index));
    }

    public int size() {
        return specs.size();
    }

    @Override
    public void close() throws IOException {
        cluster.close();
    }
}
