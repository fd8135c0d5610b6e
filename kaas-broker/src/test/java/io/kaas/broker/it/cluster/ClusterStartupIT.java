package io.kaas.broker.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.cluster.BrokerIdInUseException;
import io.kaas.api.plugin.PluginConfigException;
import io.kaas.broker.config.ConfigException;
import io.kaas.broker.it.TestBroker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Start-up of a broker with {@code cluster.store=zookeeper} refuses what cannot work, with one line that says why: a
 * node id already live in the cluster (naming it and the live broker), a storage engine that cannot share its data
 * directory, a malformed {@code zookeeper.connect} (naming the key).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClusterStartupIT {
    @TempDir
    Path dir;

    private record Exit(int code, String out) {
    }

    /** {@code io.kaas.broker.Main} in its own JVM with {@code overrides}, expected to exit within 60 s. */
    private static Exit main(String... overrides) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx256m", "-cp", System.getProperty("java.class.path"), "io.kaas.broker.Main"));
        for (String o : overrides) {
            command.add("--override");
            command.add(o);
        }
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("the broker did not exit");
        }
        return new Exit(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    private static TestingServer zookeeper(Path dir) throws Exception {
        Path data = Files.createDirectories(dir.resolve("zk"));
        return new TestingServer(new InstanceSpec(data.toFile(), -1, -1, -1, true, 1, 500, 0, Map.of(), "127.0.0.1"), true);
    }

    private static List<String> kaasLines(String out) {
        return out.lines().filter(l -> l.startsWith("kaas: ")).toList();
    }

    @Test
    void aNodeIdLiveInTheClusterRefusesToStartWithOneLineNamingIt() throws Exception {
        try (TestingServer zk = zookeeper(dir)) {
            Path plugins = dir.resolve("plugins");
            TestBroker.installPlugin("kaas-cluster-zookeeper", plugins);
            Path shared = Files.createDirectories(dir.resolve("shared"));
            TestBroker.Builder builder = TestBroker.builder(dir.resolve("b1")).dataDir(shared).pluginsDir(plugins)
                .config(Map.of("cluster.store", "zookeeper", "zookeeper.connect", zk.getConnectString() + "/kaas",
                    "zookeeper.session.timeout.ms", "6000"));
            try (TestBroker first = builder.start()) {
                assertThatThrownBy(builder::start).isInstanceOf(BrokerIdInUseException.class)
                    .hasMessageContaining("Broker id 1 is already registered");

                Exit second = main("node.id=1", "listeners=PLAINTEXT://127.0.0.1:0", "admin.listener=http://127.0.0.1:0", "log.dirs=" + shared,
                    "plugins.dir=" + plugins, "cluster.store=zookeeper", "zookeeper.connect=" + zk.getConnectString()
                        + "/kaas", "zookeeper.session.timeout.ms=6000");
                assertThat(second.code()).as(second.out()).isEqualTo(1);
                assertThat(kaasLines(second.out())).as(second.out()).singleElement().asString()
                    .startsWith("kaas: Broker id 1 is already registered in ZooKeeper");
                assertThat(first.admin().describeCluster().nodes().get(10, TimeUnit.SECONDS)).hasSize(1)
                    .as("the live broker goes on").allSatisfy(n -> assertThat(n.port()).isEqualTo(first.port()));
            }
        }
    }

    @Test
    void aMalformedZookeeperConnectFailsStartUpWithOneLineNamingTheKey() throws Exception {
        Path plugins = dir.resolve("plugins");
        TestBroker.installPlugin("kaas-cluster-zookeeper", plugins);
        Exit exit = main("node.id=1", "listeners=PLAINTEXT://127.0.0.1:0", "admin.listener=http://127.0.0.1:0", "log.dirs=" + dir.resolve("data"),
            "plugins.dir=" + plugins, "cluster.store=zookeeper", "zookeeper.connect=127.0.0.1:notaport/kaas");
        assertThat(exit.code()).as(exit.out()).isEqualTo(1);
        assertThat(kaasLines(exit.out())).as(exit.out()).singleElement().asString()
            .startsWith("kaas: Invalid value for config 'zookeeper.connect'");
        assertThatThrownBy(() -> TestBroker.builder(dir).dataDir(dir.resolve("data")).pluginsDir(plugins)
            .config(Map.of("cluster.store", "zookeeper", "zookeeper.connect", "")).start())
            .isInstanceOf(PluginConfigException.class).hasMessageContaining("'zookeeper.connect'");
    }

    @Test
    void anEngineThatCannotShareItsDataDirectoryIsRefusedWithAStoreSharedByBrokers() throws Exception {
        Path plugins = dir.resolve("plugins");
        TestBroker.installPlugin("kaas-cluster-zookeeper", plugins);
        TestBroker.installPlugin("kaas-engine-rocksdb", plugins);
        assertThatThrownBy(() -> TestBroker.builder(dir).engine(TestBroker.ROCKSDB).pluginsDir(plugins)
            .config(Map.of("cluster.store", "zookeeper", "zookeeper.connect", "127.0.0.1:2181/kaas")).start())
            .isInstanceOf(ConfigException.class)
            .hasMessage("Invalid value for config 'storage.engine': storage engine 'rocksdb' cannot share its data "
                + "directory with other brokers, which cluster store 'zookeeper' needs (use an engine that shares a "
                + "volume, e.g. segments, or cluster.store=files)");
    }
}
