package io.kaas.broker.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kaas.broker.it.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A dynamic broker config set through one broker reaches every broker of a zookeeper-store cluster. */
@Timeout(180)
class DynamicBrokerConfigsClusterIT {
    @TempDir
    Path dir;

    @Test
    void theClusterDefaultAndAnotherBrokersConfigReachEveryBroker() throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 2, Map.of()); Admin admin = cluster.clients().admin()) {
            admin.incrementalAlterConfigs(Map.of(
                    new ConfigResource(ConfigResource.Type.BROKER, ""), List.of(new AlterConfigOp(
                            new ConfigEntry("log.retention.ms", "3600000"), AlterConfigOp.OpType.SET)),
                    new ConfigResource(ConfigResource.Type.BROKER, "2"), List.of(new AlterConfigOp(
                            new ConfigEntry("message.max.bytes", "2000000"), AlterConfigOp.OpType.SET))))
                    .all().get(30, TimeUnit.SECONDS);

            for (TestBroker b : cluster.brokers().values()) {
                String id = String.valueOf(b.broker.config().nodeId());
                ConfigResource node = new ConfigResource(ConfigResource.Type.BROKER, id);
                try (Admin one = b.admin()) {
                    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                        Config config = one.describeConfigs(List.of(node)).all().get(10, TimeUnit.SECONDS).get(node);
                        assertThat(config.get("log.retention.ms").value()).isEqualTo("3600000");
                        assertThat(config.get("log.retention.ms").source())
                                .isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG);
                        assertThat(config.get("message.max.bytes").value())
                                .isEqualTo(id.equals("2") ? "2000000" : "1048588");
                    });
                }
            }
        }
    }
}
