package io.kaas.broker.it.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.it.TestBroker;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code kafka-consumer-groups} tool (ConsumerGroupCommand from kafka-tools) against kaas, each
 * run in its own JVM because the tool calls System.exit.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ConsumerGroupCommandIT {
    static final String TOPIC = "tool-topic";
    static final String GROUP = "tool-group";

    @TempDir
    static Path dataDir;
    static TestBroker broker;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.builder(dataDir).noInitialRebalanceDelay().start();
        broker.createTopic(TOPIC, 2);
        try (KafkaProducer<String, String> producer = broker.producer()) {
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>(TOPIC, i % 2, null, "v" + i));
            }
            producer.flush();
        }
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    record Run(int exitCode, String out) {
    }

    static Run tool(String... args) throws IOException, InterruptedException {
        String classpath = System.getProperty("java.class.path");
        String modulePath = System.getProperty("jdk.module.path");
        if (modulePath != null && !modulePath.isEmpty()) {
            classpath = classpath + File.pathSeparator + modulePath;
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", classpath, "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand",
                "--bootstrap-server", broker.bootstrap()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("kafka-consumer-groups " + String.join(" ", args) + " did not finish");
        }
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    /** Consumes {@code count} records as the group and commits, then leaves. */
    static void consumeAndCommit(int count) {
        try (KafkaConsumer<String, String> consumer = broker.groupConsumer(GROUP, Map.of())) {
            consumer.subscribe(List.of(TOPIC));
            List<ConsumerRecord<String, String>> got = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (got.size() < count && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(100)).forEach(got::add);
            }
            assertThat(got).hasSize(count);
            consumer.commitSync();
        }
    }

    /** The describe table's rows for our topic: partition → [current offset, log end offset, lag]. */
    static Map<Integer, long[]> describeRows(String out) {
        Map<Integer, long[]> rows = new java.util.TreeMap<>();
        for (String line : out.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 6 && f[0].equals(GROUP) && f[1].equals(TOPIC)) {
                rows.put(Integer.parseInt(f[2]), new long[] {Long.parseLong(f[3]), Long.parseLong(f[4]), Long.parseLong(f[5])});
            }
        }
        return rows;
    }

    @Test
    void listDescribeResetAndDelete() throws Exception {
        consumeAndCommit(10);
        try (KafkaProducer<String, String> producer = broker.producer()) {
            producer.send(new ProducerRecord<>(TOPIC, 0, null, "late-1"));
            producer.send(new ProducerRecord<>(TOPIC, 0, null, "late-2"));
            producer.send(new ProducerRecord<>(TOPIC, 1, null, "late-3"));
            producer.flush();
        }

        Run list = tool("--list");
        assertThat(list.exitCode()).as(list.out()).isZero();
        assertThat(list.out().lines()).contains(GROUP);

        Run describe = tool("--describe", "--group", GROUP);
        assertThat(describe.exitCode()).as(describe.out()).isZero();
        assertThat(describe.out()).contains("has no active members");
        Map<Integer, long[]> rows = describeRows(describe.out());
        assertThat(rows).as(describe.out()).containsOnlyKeys(0, 1);
        assertThat(rows.get(0)).containsExactly(5, 7, 2);
        assertThat(rows.get(1)).containsExactly(5, 6, 1);

        Run reset = tool("--reset-offsets", "--group", GROUP, "--topic", TOPIC, "--to-earliest", "--execute");
        assertThat(reset.exitCode()).as(reset.out()).isZero();
        Map<Integer, long[]> afterReset = describeRows(tool("--describe", "--group", GROUP).out());
        assertThat(afterReset.get(0)).containsExactly(0, 7, 7);
        assertThat(afterReset.get(1)).containsExactly(0, 6, 6);

        Run delete = tool("--delete", "--group", GROUP);
        assertThat(delete.exitCode()).as(delete.out()).isZero();
        assertThat(delete.out()).contains("Deletion of requested consumer groups ('" + GROUP + "') was successful.");
        assertThat(tool("--list").out().lines()).doesNotContain(GROUP);
    }
}
