package io.kaas.broker.it.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.it.TestBroker;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code kafka-configs} tool (kafka.admin.ConfigCommand, Kafka 4.1's core) on group configs against
 * kaas, each run in its own JVM as the script runs it: --alter --add-config / --delete-config, --describe of
 * one group and of every group, and a refused value reported with Kafka's message.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class ConfigCommandGroupsIT {
    @TempDir
    Path dir;

    record Run(int exitCode, String out) {
    }

    static Run kafkaConfigs(TestBroker broker, String... args) throws IOException, InterruptedException {
        String classpath = System.getProperty("java.class.path");
        String modulePath = System.getProperty("jdk.module.path");
        if (modulePath != null && !modulePath.isEmpty()) {
            classpath = classpath + File.pathSeparator + modulePath;
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", classpath, "kafka.admin.ConfigCommand", "--bootstrap-server", broker.bootstrap()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("kafka-configs " + String.join(" ", args) + " did not finish");
        }
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    @Test
    void kafkaConfigsAltersDescribesAndDeletesGroupConfigs() throws Exception {
        try (TestBroker broker = TestBroker.builder(dir).config(Map.of()).start()) {
            Run alter = kafkaConfigs(broker, "--alter", "--entity-type", "groups", "--entity-name", "orders-app",
                    "--add-config", "consumer.heartbeat.interval.ms=6000,consumer.session.timeout.ms=50000");
            assertThat(alter.exitCode()).as(alter.out()).isZero();
            assertThat(alter.out()).contains("Completed updating config for group orders-app.");

            Run describe = kafkaConfigs(broker, "--describe", "--entity-type", "groups", "--entity-name", "orders-app");
            assertThat(describe.exitCode()).as(describe.out()).isZero();
            assertThat(describe.out()).contains("Dynamic configs for group orders-app are:")
                    .contains("consumer.heartbeat.interval.ms=6000").contains("consumer.session.timeout.ms=50000");

            Run all = kafkaConfigs(broker, "--describe", "--entity-type", "groups");
            assertThat(all.exitCode()).as(all.out()).isZero();
            assertThat(all.out()).contains("Dynamic configs for group orders-app are:");

            Run bad = kafkaConfigs(broker, "--alter", "--entity-type", "groups", "--entity-name", "orders-app",
                    "--add-config", "consumer.heartbeat.interval.ms=1");
            assertThat(bad.exitCode()).as(bad.out()).isNotZero();
            assertThat(bad.out()).contains(
                    "consumer.heartbeat.interval.ms must be greater than or equal to group.consumer.min.heartbeat.interval.ms");

            Run delete = kafkaConfigs(broker, "--alter", "--entity-type", "groups", "--entity-name", "orders-app",
                    "--delete-config", "consumer.heartbeat.interval.ms");
            assertThat(delete.exitCode()).as(delete.out()).isZero();
            Run after = kafkaConfigs(broker, "--describe", "--entity-type", "groups", "--entity-name", "orders-app");
            assertThat(after.out()).contains("consumer.session.timeout.ms=50000")
                    .doesNotContain("consumer.heartbeat.interval.ms=6000");
        }
    }
}
