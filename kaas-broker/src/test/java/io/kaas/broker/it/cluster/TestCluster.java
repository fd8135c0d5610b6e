package io.kaas.broker.it.cluster;

import io.kaas.broker.it.KafkaClients;
import io.kaas.broker.it.TestBroker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;

/**
 * A real 3-node ZooKeeper ensemble (curator-test) and in-process kaas brokers on one shared data directory with
 * {@code cluster.store=zookeeper}, the store coming from its plugin zip as in the distribution. Brokers are started,
 * closed and restarted by node id; {@link #clients()} bootstraps from every live one.
 */
public final class TestCluster implements AutoCloseable {
    /** Short enough for tests, within what the ensemble's tick time allows (2 to 20 ticks). */
    static final int SESSION_TIMEOUT_MS = 6_000;
    private static final int TICK_MS = 500;

    final TestingCluster zookeeper;
    final Path shared;
    private final Path dir;
    private final Path plugins;
    private final String chroot;
    private final Map<String, String> extra;
    private final Map<Integer, TestBroker> brokers = new TreeMap<>();

    private TestCluster(TestingCluster zookeeper, Path dir, Path plugins, String chroot, Map<String, String> extra) {
        this.zookeeper = zookeeper;
        this.dir = dir;
        this.shared = dir.resolve("shared");
        this.plugins = plugins;
        this.chroot = chroot;
        this.extra = extra;
    }

    /** The ensemble, started, and no broker yet. */
    static TestCluster ensemble(Path dir, Map<String, String> extra) throws Exception {
        List<InstanceSpec> specs = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            Path zkDir = Files.createDirectories(dir.resolve("zk-" + i));
            specs.add(new InstanceSpec(zkDir.toFile(), -1, -1, -1, true, i, TICK_MS, 0, Map.of(), "127.0.0.1"));
        }
        TestingCluster zk = new TestingCluster(specs);
        zk.start();
        Path plugins = dir.resolve("plugins");
        TestBroker.installPlugin("kaas-cluster-zookeeper", plugins);
        return new TestCluster(zk, dir, plugins, "/kaas", extra);
    }

    /** The ensemble and brokers {@code 1..count}. */
    public static TestCluster start(Path dir, int count, Map<String, String> extra) throws Exception {
        TestCluster c = ensemble(dir, extra);
        try {
            for (int id = 1; id <= count; id++) {
                c.startBroker(id);
            }
        } catch (Exception | Error e) {
            c.close();
            throw e;
        }
        return c;
    }

    String connect() {
        return zookeeper.getConnectString() + chroot;
    }

    /** Broker {@code id}'s builder: the shared directory, the zookeeper store, its own ephemeral port. */
    TestBroker.Builder builder(int id) {
        Map<String, String> config = new HashMap<>();
        config.put("node.id", String.valueOf(id));
        config.put("cluster.store", "zookeeper");
        config.put("zookeeper.connect", connect());
        config.put("zookeeper.session.timeout.ms", String.valueOf(SESSION_TIMEOUT_MS));
        config.put("broker.rack", "rack-" + id);
        config.putAll(extra);
        return TestBroker.builder(dir.resolve("broker-" + id)).dataDir(shared).pluginsDir(plugins).config(config);
    }

    TestBroker startBroker(int id) throws IOException {
        return startBroker(id, Map.of());
    }

    /** Broker {@code id} with {@code more} settings over the cluster's. */
    TestBroker startBroker(int id, Map<String, String> more) throws IOException {
        TestBroker b = builder(id).config(more).start();
        brokers.put(id, b);
        return b;
    }

    /** Closes broker {@code id} (gracefully: its session ends, its partitions go to the others). */
    public void closeBroker(int id) {
        TestBroker b = brokers.remove(id);
        if (b != null) {
            b.close();
        }
    }

    TestBroker broker(int id) {
        return brokers.get(id);
    }

    Map<Integer, TestBroker> brokers() {
        return brokers;
    }

    /** Clients bootstrapping from every live broker. */
    public KafkaClients clients() {
        return KafkaClients.at(brokers.values().stream().map(TestBroker::bootstrap).collect(Collectors.joining(",")));
    }

    @Override
    public void close() throws Exception {
        for (TestBroker b : List.copyOf(brokers.values())) {
            b.close();
        }
        brokers.clear();
        zookeeper.close();
    }
}
