package io.kaas.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.Uuid;

/**
 * Apache Kafka ({@code org.apache.kafka:kafka_2.13}) in KRaft single-node combined mode on loopback:
 * storage formatted with {@code kafka.tools.StorageTool}, then {@code kafka.Kafka}, with the JVM flags
 * of Kafka's own {@code kafka-server-start.sh}. {@code flushEveryMessage} sets
 * {@code log.flush.interval.messages=1} (fsync on every append, like kaas's default).
 */
final class KafkaUnderTest extends BrokerUnderTest {
    /** kafka-server-start.sh / kafka-run-class.sh defaults. */
    static final List<String> KAFKA_JVM_FLAGS = List.of("-Xmx1G", "-Xms1G", "-server", "-XX:+UseG1GC",
            "-XX:MaxGCPauseMillis=20", "-XX:InitiatingHeapOccupancyPercent=35", "-XX:+ExplicitGCInvokesConcurrent",
            "-XX:MaxInlineLevel=15", "-Djava.awt.headless=true");

    private final boolean flushEveryMessage;
    private final int transactionVersion;
    private final String classpath;
    private final TlsMaterial tls;

    KafkaUnderTest(boolean flushEveryMessage, String classpath) {
        this(flushEveryMessage, 0, classpath);
    }

    /**
     * @param transactionVersion the {@code transaction.version} feature level to format with
     *                           ({@code --feature transaction.version=N}); 0 for the release's default (2 in 4.4)
     */
    KafkaUnderTest(boolean flushEveryMessage, int transactionVersion, String classpath) {
        this(flushEveryMessage, transactionVersion, classpath, null);
    }

    /** @param tls with it, an SSL listener (those certificates) beside the PLAINTEXT one, labelled {@code kafka-tls} */
    KafkaUnderTest(boolean flushEveryMessage, int transactionVersion, String classpath, TlsMaterial tls) {
        this.flushEveryMessage = flushEveryMessage;
        this.transactionVersion = transactionVersion;
        this.classpath = classpath;
        this.tls = tls;
    }

    @Override
    TlsMaterial tls() {
        return tls;
    }

    @Override
    String label() {
        return (flushEveryMessage ? "kafka-flush1" : "kafka") + (transactionVersion > 0 ? "-tv" + transactionVersion : "")
                + (tls != null ? "-tls" : "");
    }

    @Override
    String describe() {
        return (flushEveryMessage ? "Kafka with log.flush.interval.messages=1 (fsync every append)"
                : "Kafka default: no fsync on ack (page cache only)")
                + (transactionVersion > 0 ? ", formatted with transaction.version=" + transactionVersion : "")
                + "; kafka-server-start.sh JVM flags (-Xms1G -Xmx1G, G1), KRaft combined mode"
                + (tls != null ? "; clients over an SSL listener (the same PKCS12 key store)" : "");
    }

    @Override
    List<String> command(Path workDir, Path dataDir, int port) throws IOException {
        int controllerPort = freePort();
        Path config = workDir.resolve("server.properties");
        List<String> lines = new ArrayList<>(List.of(
                "process.roles=broker,controller",
                "node.id=1",
                "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
                "listeners=PLAINTEXT://127.0.0.1:" + port + ssl() + ",CONTROLLER://127.0.0.1:" + controllerPort,
                "advertised.listeners=PLAINTEXT://127.0.0.1:" + port + ssl(),
                "controller.listener.names=CONTROLLER",
                "inter.broker.listener.name=PLAINTEXT",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,SSL:SSL,CONTROLLER:PLAINTEXT",
                "log.dirs=" + dataDir,
                "num.partitions=1",
                "auto.create.topics.enable=false",
                "offsets.topic.replication.factor=1",
                "offsets.topic.num.partitions=1",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "share.coordinator.state.topic.replication.factor=1",
                "share.coordinator.state.topic.min.isr=1",
                "group.initial.rebalance.delay.ms=0"));
        if (flushEveryMessage) {
            lines.add("log.flush.interval.messages=1");
        }
        if (tls != null) {
            lines.addAll(tls.brokerKeys());
        }
        Files.write(config, lines);
        format(workDir, config);
        List<String> cmd = new ArrayList<>();
        cmd.add(javaBin());
        cmd.addAll(KAFKA_JVM_FLAGS);
        cmd.addAll(List.of("-cp", classpath, "kafka.Kafka", config.toString()));
        return cmd;
    }

    private String ssl() {
        return tls == null ? "" : ",SSL://127.0.0.1:" + sslPort;
    }

    /** {@code kafka-storage.sh format -t <uuid> -c server.properties [--feature ...]}, as a separate JVM. */
    private void format(Path workDir, Path config) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(javaBin(), "-Xmx256m", "-cp", classpath, "kafka.tools.StorageTool",
                "format", "-t", Uuid.randomUuid().toString(), "-c", config.toString()));
        if (transactionVersion > 0) {
            cmd.addAll(List.of("--feature", "transaction.version=" + transactionVersion));
        }
        Process p = new ProcessBuilder(cmd).directory(workDir.toFile()).redirectErrorStream(true)
                .redirectOutput(workDir.resolve("format.log").toFile()).start();
        try {
            if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException("kafka storage format failed, see " + workDir.resolve("format.log"));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
