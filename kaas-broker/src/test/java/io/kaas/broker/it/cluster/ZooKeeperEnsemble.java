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
                    Map.of("admin.enableServer", "false", "4lw.commands.whitelist", "srvr"), "127.0.0.1"));
        }
        TestingCluster cluster = new TestingCluster(specs);
        cluster.start();
        ZooKeeperEnsemble ensemble = new ZooKeeperEnsemble(cluster, specs);
        ensemble.awaitQuorum();
        return ensemble;
    }

    /**
     * Waits (at most 60 s) until every server serves as leader or follower: the ensemble has elected a leader, so a
     * broker started now connects at once instead of running into its connection timeout.
     */
    private void awaitQuorum() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        for (InstanceSpec spec : specs) {
            while (!serving(spec.getPort())) {
                if (System.nanoTime() > deadline) {
                    throw new IOException("ZooKeeper server on port " + spec.getPort() + " is not serving after 60 s");
                }
                Thread.sleep(100);
            }
        }
    }

    /** ZooKeeper's {@code srvr} answer names the server's mode once it is in a quorum. */
    private static boolean serving(int port) {
        try (java.net.Socket s = new java.net.Socket()) {
            s.connect(new java.net.InetSocketAddress("127.0.0.1", port), 500);
            s.setSoTimeout(2000);
            s.getOutputStream().write("srvr".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            s.shutdownOutput();
            String answer = new String(s.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII);
            return answer.contains("Mode: leader") || answer.contains("Mode: follower");
        } catch (IOException notYet) {
            return false;
        }
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
