package io.kaas.broker.it.scram;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.it.KafkaConfigsTool;
import io.kaas.broker.it.TestBroker;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kafka-configs --entity-type users} (org.apache.kafka.tools.ConfigCommand, Kafka 4.4's tools) on SCRAM credentials,
 * each run in its own JVM as the script runs it: --alter --add-config, --describe (which asks
 * DescribeClientQuotas first), --delete-config, and a refused iteration count reported with the tool's message.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ScramConfigCommandIT {
    @TempDir
    Path dir;

    private static KafkaConfigsTool.Run kafkaConfigs(TestBroker broker, String... args) throws Exception {
        return KafkaConfigsTool.run(broker, args);
    }

    @Test
    void kafkaConfigsAddsDescribesAndDeletesScramCredentials() throws Exception {
        try (TestBroker broker = TestBroker.builder(dir).start()) {
            KafkaConfigsTool.Run alter = kafkaConfigs(broker, "--alter", "--entity-type", "users", "--entity-name", "alice",
                    "--add-config", "SCRAM-SHA-256=[iterations=8192,password=alice-secret]");
            assertThat(alter.exitCode()).as(alter.out()).isZero();
            assertThat(alter.out()).contains("Completed updating config for user alice.");
            KafkaConfigsTool.Run alter512 = kafkaConfigs(broker, "--alter", "--entity-type", "users", "--entity-name", "alice",
                    "--add-config", "SCRAM-SHA-512=[password=alice-512]");
            assertThat(alter512.exitCode()).as(alter512.out()).isZero();

            KafkaConfigsTool.Run describe = kafkaConfigs(broker, "--describe", "--entity-type", "users", "--entity-name", "alice");
            assertThat(describe.exitCode()).as(describe.out()).isZero();
            assertThat(describe.out()).contains("SCRAM credential configs for user-principal 'alice' are ")
                    .contains("SCRAM-SHA-256=iterations=8192").contains("SCRAM-SHA-512=iterations=4096")
                    .doesNotContain("alice-secret");
            ScramCredentialsIT.authenticates(broker,
                    org.apache.kafka.common.security.scram.internals.ScramMechanism.SCRAM_SHA_256, "alice", "alice-secret");

            KafkaConfigsTool.Run tooFew = kafkaConfigs(broker, "--alter", "--entity-type", "users", "--entity-name", "bob",
                    "--add-config", "SCRAM-SHA-256=[iterations=1000,password=bob-secret]");
            assertThat(tooFew.exitCode()).as(tooFew.out()).isNotZero();
            // The tool refuses it before asking (the broker's own refusal is ScramCredentialsIT's).
            assertThat(tooFew.out()).contains("Iterations 1000 is less than the minimum 4096 required for SCRAM-SHA-256");
            assertThat(broker.broker.clusterStore().scramCredentials("bob")).isEmpty();

            KafkaConfigsTool.Run delete = kafkaConfigs(broker, "--alter", "--entity-type", "users", "--entity-name", "alice",
                    "--delete-config", "SCRAM-SHA-256");
            assertThat(delete.exitCode()).as(delete.out()).isZero();
            KafkaConfigsTool.Run after = kafkaConfigs(broker, "--describe", "--entity-type", "users", "--entity-name", "alice");
            assertThat(after.exitCode()).as(after.out()).isZero();
            assertThat(after.out()).contains("SCRAM-SHA-512=iterations=4096").doesNotContain("SCRAM-SHA-256=");

            KafkaConfigsTool.Run all = kafkaConfigs(broker, "--describe", "--entity-type", "users");
            assertThat(all.exitCode()).as(all.out()).isZero();
            assertThat(all.out()).contains("SCRAM credential configs for user-principal 'alice' are SCRAM-SHA-512=iterations=4096")
                    .doesNotContain("'bob'");
        }
    }
}
