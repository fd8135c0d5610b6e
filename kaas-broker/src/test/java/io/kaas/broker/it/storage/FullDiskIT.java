package io.kaas.broker.it.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.it.KafkaClients;
import io.kaas.broker.it.TestBroker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The broker on an 8 MiB tmpfs (mounted by the test; skipped where {@code mount} is not permitted) until it
 * fills: produce answers KAFKA_STORAGE_ERROR, reads keep working, nothing acknowledged is lost, and writes
 * succeed again once a topic is deleted.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class FullDiskIT {
    private static Path mountPoint;

    @BeforeAll
    static void mountSmallFilesystem() throws Exception {
        mountPoint = Files.createTempDirectory("kaas-full-disk");
        String result = run("mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", mountPoint.toString());
        if (result != null) {
            Files.deleteIfExists(mountPoint);
            mountPoint = null;
        }
        Assumptions.assumeTrue(result == null, "cannot mount a size-limited tmpfs here (needs root): " + result);
    }

    @AfterAll
    static void unmount() throws Exception {
        if (mountPoint != null) {
            run("umount", mountPoint.toString());
            Files.deleteIfExists(mountPoint);
        }
    }

    /** Runs a command; null if it succeeded, else its output. */
    private static String run(String... command) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            return e.getMessage();
        }
        String out = new String(p.getInputStream().readAllBytes());
        return p.waitFor() == 0 ? null : out.trim();
    }

    @Test
    void refusesWritesWhenFullKeepsServingReadsAndRecoversAfterATopicIsDeleted() throws Exception {
        try (TestBroker broker = TestBroker.start(mountPoint.resolve("data"), Map.of()); Admin admin = broker.admin()) {
            KafkaClients.createTopic(admin, "filler", 1, Map.of());
            KafkaClients.createTopic(admin, "survivor", 1, Map.of());
            String value = "x".repeat(64 * 1024);
            List<Long> acked = new ArrayList<>();
            Throwable refusal = null;
            try (KafkaProducer<String, String> producer = broker.producer(Map.of(ProducerConfig.RETRIES_CONFIG, 0,
                    ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false))) {
                acked.add(producer.send(new ProducerRecord<>("survivor", 0, "s", "before")).get(10, TimeUnit.SECONDS).offset());
                for (int i = 0; i < 400 && refusal == null; i++) {
                    try {
                        acked.add(producer.send(new ProducerRecord<>("filler", 0, "k" + i, value)).get(10, TimeUnit.SECONDS)
                                .offset());
                    } catch (ExecutionException e) {
                        refusal = e.getCause();
                    }
                }
                assertThat(refusal).as("a produce refused once the filesystem is full").isInstanceOf(KafkaStorageException.class);
                // still refused, nothing half-written: the next acknowledged offset continues where the last one ended
                try (KafkaConsumer<String, String> consumer = broker.consumer()) {
                    List<ConsumerRecord<String, String>> read = KafkaClients.readAll(consumer, new TopicPartition("filler", 0),
                            Duration.ofSeconds(20));
                    assertThat(read).hasSize(acked.size() - 1);
                    assertThat(read).extracting(ConsumerRecord::value).containsOnly(value);
                }
                admin.deleteTopics(List.of("filler")).all().get(20, TimeUnit.SECONDS);
                long after = producer.send(new ProducerRecord<>("survivor", 0, "s", "after")).get(10, TimeUnit.SECONDS).offset();
                assertThat(after).isEqualTo(1);
            }
            try (KafkaConsumer<String, String> consumer = broker.consumer()) {
                assertThat(KafkaClients.readAll(consumer, new TopicPartition("survivor", 0), Duration.ofSeconds(20)))
                        .extracting(ConsumerRecord::value).containsExactly("before", "after");
            }
        }
    }
}
