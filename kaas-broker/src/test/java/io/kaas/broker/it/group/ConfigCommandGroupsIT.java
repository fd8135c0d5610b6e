package io.kaas.broker.it.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.it.KafkaConfigsTool;
import io.kaas.broker.it.TestBroker;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code kafka-configs} tool (org.apache.kafka.tools.ConfigCommand, Kafka 4.4's tools) on group configs against
 * kaas, each run in its own JVM as the script runs it: --alter --add-config / --delete-config, --describe of
 * one group and of every group, and a refused value reported with Kafka's message.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class ConfigCommandGroupsIT {
    @TempDir
    Path dir;

    private static KafkaConfigsTool.Run kafkaConfigs(TestBroker broker, String... args) throws Exception {
        return KafkaConfigsTool.run(broker, args);
    }

    @Test
    void kafkaConfigsAltersDescribesAndDeletesGroupConfigs() throws Exception {
        try (TestBroker broker = TestBroker.builder(dir).config(Map.of()).start()) {
            KafkaConfigsTool.Run alter = kafkaConfigs(broker, "--alter", "--entity-type", "groups", "--entity-name", "orders-app",
                    "--add-config", "consumer.heartbeat.interval.ms=6000,consumer.session.timeout.ms=50000");
            assertThat(alter.exitCode()).as(alter.out()).isZero();
            assertThat(alter.out()).contains("Completed updating config for group orders-app.");

            KafkaConfigsTool.Run describe = kafkaConfigs(broker, "--describe", "--entity-type", "groups", "--entity-name", "orders-app");
            assertThat(describe.exitCode()).as(describe.out()).isZero();
            assertThat(describe.out()).contains("Dynamic configs for group orders-app are:")
                    .contains("consumer.heartbeat.interval.ms=6000").contains("consumer.session.timeout.ms=50000");

            KafkaConfigsTool.Run all = kafkaConfigs(broker, "--describe", "--entity-type", "groups");
            assertThat(all.exitCode()).as(all.out()).isZero();
            assertThat(all.out()).contains("Dynamic configs for group orders-app are:");

            KafkaConfigsTool.Run bad = kafkaConfigs(broker, "--alter", "--entity-type", "groups", "--entity-name", "orders-app",
                    "--add-config", "consumer.heartbeat.interval.ms=1");
            assertThat(bad.exitCode()).as(bad.out()).isNotZero();
            assertThat(bad.out()).contains(
                    "consumer.heartbeat.interval.ms must be in the range 5000 to 15000 inclusive.");

            KafkaConfigsTool.Run delete = kafkaConfigs(broker, "--alter", "--entity-type", "groups", "--entity-name", "orders-app",
                    "--delete-config", "consumer.heartbeat.interval.ms");
            assertThat(delete.exitCode()).as(delete.out()).isZero();
            KafkaConfigsTool.Run after = kafkaConfigs(broker, "--describe", "--entity-type", "groups", "--entity-name", "orders-app");
            assertThat(after.out()).contains("consumer.session.timeout.ms=50000")
                    .doesNotContain("consumer.heartbeat.interval.ms=6000");
        }
    }
}
