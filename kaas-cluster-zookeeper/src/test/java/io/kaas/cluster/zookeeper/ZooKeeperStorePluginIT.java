package io.kaas.cluster.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.cluster.BrokerRegistration;
import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.ClusterStateStoreProvider;
import io.kaas.api.cluster.ClusterStoreContext;
import io.kaas.api.cluster.LiveBroker;
import io.kaas.api.cluster.RegisteredEndpoint;
import io.kaas.api.cluster.TopicRecord;
import io.kaas.api.plugin.PluginConfig;
import io.kaas.plugin.tck.PackagedPluginSmoke;
import io.kaas.plugins.BackendCatalog;
import io.kaas.plugins.BackendSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built plugin zip, dropped into a temporary {@code plugins/} and loaded by the real plugin host: the store comes
 * only from the zip (this test's class path holds none of the module's main classes), connects to a real ZooKeeper
 * server and keeps what it was given across a reopen.
 */
@Timeout(120)
class ZooKeeperStorePluginIT {
    @TempDir
    Path plugins;
    @TempDir
    Path data;
    @TempDir
    Path zkData;

    @Test
    void theBuiltZipIsFoundByThePluginHostAndKeepsTopicsAndRegistrationsInZooKeeper() throws Exception {
        Path zip = PackagedPluginSmoke.builtZip();
        Files.copy(zip, plugins.resolve(zip.getFileName()));
        ch.qos.logback.classic.Logger root = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(
                org.slf4j.Logger.ROOT_LOGGER_NAME);
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> logged =
                new ch.qos.logback.core.read.ListAppender<>();
        logged.start();
        root.addAppender(logged);
        BackendCatalog catalog;
        try {
            catalog = BackendCatalog.discover(List.of(BackendSource.plugins(plugins)));
        } finally {
            root.detachAppender(logged);
        }
        assertThat(logged.list).as("loading the plugin logs no error").noneMatch(e -> e.getLevel().isGreaterOrEqual(
                ch.qos.logback.classic.Level.ERROR));
        ClusterStateStoreProvider provider = catalog.select(ClusterStateStoreProvider.class, "cluster.store", "zookeeper");
        assertThatThrownBy(() -> Class.forName("io.kaas.cluster.zookeeper.ZooKeeperClusterStoreProvider"))
                .as("the store is not on the test class path").isInstanceOf(ClassNotFoundException.class);
        assertThat(catalog.all()).singleElement().satisfies(f -> {
            assertThat(f.kind()).isEqualTo("cluster-state store");
            assertThat(f.origin()).startsWith("plugin kaas-cluster-zookeeper ");
        });
        assertThat(provider.configKeys()).contains("zookeeper.connect", "zookeeper.session.timeout.ms");

        InstanceSpec spec = new InstanceSpec(zkData.toFile(), -1, -1, -1, false, 1, 100, 0, Map.of(), "127.0.0.1");
        try (TestingServer server = new TestingServer(spec, true)) {
            // ZooKeeper's Netty client socket (the one TLS needs): the plugin's own Netty loads and connects
            PluginConfig config = PluginConfig.of(Map.of("zookeeper.connect", server.getConnectString() + "/kaas/plugin-it",
                    "zookeeper.session.timeout.ms", "2000", "zookeeper.clientCnxnSocket", "org.apache.zookeeper.ClientCnxnSocketNetty"));
            TopicRecord topic = new TopicRecord("orders", UUID.randomUUID(), 3, Map.of("retention.ms", "1000"));
            String clusterId;
            try (ClusterStateStore store = provider.open(new ClusterStoreContext(data, config, 1))) {
                clusterId = store.clusterId();
                store.createTopic(topic);
                LiveBroker me = store.registerBroker(new BrokerRegistration(1,
                        List.of(new RegisteredEndpoint("PLAINTEXT", "PLAINTEXT", "127.0.0.1", 9092)), Optional.empty(),
                        "127.0.0.1", ProcessHandle.current().pid()));
                assertThat(store.liveBrokers()).containsEntry(1, me);
                assertThat(store.session().leaseValid()).isTrue();
            }
            try (ClusterStateStore store = provider.open(new ClusterStoreContext(data, config, 1))) {
                assertThat(store.clusterId()).isEqualTo(clusterId);
                assertThat(store.topic("orders")).contains(topic);
                assertThat(store.liveBrokers()).as("the closed store's registration ended with its session").isEmpty();
            }
        }
    }
}
