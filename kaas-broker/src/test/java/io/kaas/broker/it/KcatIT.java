package io.kaas.broker.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * librdkafka, through kcat, against kaas: a non-Java client negotiates versions, produces (with each
 * codec, which needs Produce v0 advertised: KAFKA-18659) and consumes. Skipped where kcat is not installed.
 */
@Timeout(120)
class KcatIT {
    @TempDir
    static Path dataDir;
    static TestBroker broker;

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(kcatPath() != null, "kcat is not installed");
        broker = TestBroker.start(dataDir);
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    static String kcatPath() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            File f = new File(dir, "kcat");
            if (f.canExecute()) {
                return f.getPath();
            }
        }
        return null;
    }

    private static String kcat(String stdin, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(kcatPath(), "-b", broker.bootstrap()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(false).start();
        if (stdin != null) {
            p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("kcat finished").isTrue();
        assertThat(p.exitValue()).as("kcat exit code; stderr: %s", err).isZero();
        return new String(out, StandardCharsets.UTF_8);
    }

    private static void createTopic(String name, int partitions) throws Exception {
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all().get(20, TimeUnit.SECONDS);
        }
    }

    @Test
    void metadataListsTheBrokerAndTopics() throws Exception {
        createTopic("kcat-meta", 2);
        String out = kcat(null, "-L", "-t", "kcat-meta");
        assertThat(out).contains("broker 1 at 127.0.0.1:" + broker.port());
        assertThat(out).contains("topic \"kcat-meta\" with 2 partitions");
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "gzip", "snappy", "lz4", "zstd"})
    void kcatProducesAndTheJavaConsumerReadsItBack(String codec) throws Exception {
        String topic = "kcat-produce-" + codec;
        createTopic(topic, 1);
        String lines = String.join("\n", IntStream.range(0, 200).mapToObj(i -> "k" + i + ":v" + i).toList()) + "\n";
        kcat(lines, "-P", "-t", topic, "-p", "0", "-K", ":", "-z", codec, "-X", "acks=all");

        try (KafkaConsumer<String, String> consumer = broker.consumer(Map.of())) {
            List<ConsumerRecord<String, String>> got = Consume.fromBeginning(consumer,
                    List.of(new TopicPartition(topic, 0)), 200, Duration.ofSeconds(30));
            assertThat(got).extracting(ConsumerRecord::key)
                    .containsExactlyElementsOf(IntStream.range(0, 200).mapToObj(i -> "k" + i).toList());
            assertThat(got).extracting(ConsumerRecord::value)
                    .containsExactlyElementsOf(IntStream.range(0, 200).mapToObj(i -> "v" + i).toList());
        }
    }

    @Test
    void kcatConsumesWhatTheJavaProducerWrote() throws Exception {
        String topic = "kcat-consume";
        createTopic(topic, 1);
        try (KafkaProducer<String, String> producer = broker.producer(Map.of("compression.type", "zstd"))) {
            for (int i = 0; i < 300; i++) {
                producer.send(new ProducerRecord<>(topic, 0, "key" + i, "value" + i));
            }
            producer.flush();
        }
        String out = kcat(null, "-C", "-t", topic, "-p", "0", "-o", "beginning", "-e", "-f", "%k=%s@%o\n");
        List<String> expected = IntStream.range(0, 300).mapToObj(i -> "key" + i + "=value" + i + "@" + i).toList();
        assertThat(out.lines().toList()).containsExactlyElementsOf(expected);
    }

    @Test
    void kcatReadsFromTheMiddleOfABatch() throws Exception {
        String topic = "kcat-middle";
        createTopic(topic, 1);
        try (KafkaProducer<String, String> producer = broker.producer(Map.of("linger.ms", 50, "batch.size", 1 << 20))) {
            for (int i = 0; i < 50; i++) {
                producer.send(new ProducerRecord<>(topic, 0, null, "m" + i));
            }
            producer.flush();
        }
        String out = kcat(null, "-C", "-t", topic, "-p", "0", "-o", "37", "-e", "-f", "%s@%o\n");
        assertThat(out.lines().toList())
                .containsExactlyElementsOf(IntStream.range(37, 50).mapToObj(i -> "m" + i + "@" + i).toList());
        assertThat(Files.exists(dataDir)).isTrue();
    }
}
