package io.kaas.broker.it.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kaas.broker.it.KafkaClients;
import io.kaas.broker.it.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retention by time and by size, the segment.ms roll of a quiet segment, and DeleteRecords to the high watermark
 * (-1), through the real Java client and Admin API, with topic configs set through Admin. The engine's background
 * pass runs every 100 ms ({@code storage.segments.retention.check.interval.ms}).
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class RetentionThroughClientsIT {
    private static final Map<String, String> FAST_PASS = Map.of("storage.segments.retention.check.interval.ms", "100");
    private static final String VALUE_10K = "x".repeat(10_000);

    @TempDir
    Path dataDir;

    @Test
    void retentionBytesDeletesTheOldestClosedSegments() throws Exception {
        try (TestBroker broker = TestBroker.start(dataDir, FAST_PASS); Admin admin = broker.admin()) {
            KafkaClients.createTopic(admin, "by-size", 1, Map.of("segment.bytes", "1048576",
                    "retention.bytes", "1572864"));
            TopicPartition tp = new TopicPartition("by-size", 0);
            produce(broker, "by-size", 400, VALUE_10K); // ~4 MB: four segments
            awaitAtLeast(() -> earliest(admin, tp), 200, Duration.ofSeconds(10));
            long start = earliest(admin, tp);
            assertThat(latest(admin, tp)).isEqualTo(400);
            try (KafkaConsumer<String, String> consumer = broker.consumer()) {
                List<ConsumerRecord<String, String>> rest = KafkaClients.readAll(consumer, tp, Duration.ofSeconds(20));
                assertThat(rest.get(0).offset()).isEqualTo(start);
                assertThat(rest).hasSize((int) (400 - start));
            }
        }
    }

    @Test
    void retentionMsDeletesARolledQuietSegment() throws Exception {
        try (TestBroker broker = TestBroker.start(dataDir, FAST_PASS); Admin admin = broker.admin()) {
            KafkaClients.createTopic(admin, "by-time", 1, Map.of("segment.ms", "300", "retention.ms", "1000"));
            KafkaClients.createTopic(admin, "kept", 1, Map.of("segment.ms", "300"));
            produce(broker, "by-time", 50, "v");
            produce(broker, "kept", 50, "v");
            TopicPartition tp = new TopicPartition("by-time", 0);
            assertThat(earliest(admin, tp)).isZero();
            // segment.ms rolls the quiet active segment, then retention.ms deletes it: the log is empty at offset 50
            awaitAtLeast(() -> earliest(admin, tp), 50, Duration.ofSeconds(10));
            assertThat(latest(admin, tp)).isEqualTo(50);
            assertThat(earliest(admin, new TopicPartition("kept", 0))).isZero();
            produce(broker, "by-time", 1, "after");
            assertThat(latest(admin, tp)).isEqualTo(51);
        }
    }

    @Test
    void anEmptyCleanupPolicyKeepsTheLogWhole() throws Exception {
        // Kafka 4.4: an empty cleanup.policy is neither delete nor compact, "infinite retention"
        try (TestBroker broker = TestBroker.start(dataDir, FAST_PASS); Admin admin = broker.admin()) {
            Map<String, String> shortLived = Map.of("segment.ms", "300", "retention.ms", "1000");
            KafkaClients.createTopic(admin, "by-time", 1, shortLived);
            Map<String, String> noPolicy = new java.util.HashMap<>(shortLived);
            noPolicy.put("cleanup.policy", "");
            KafkaClients.createTopic(admin, "no-policy", 1, noPolicy);
            produce(broker, "by-time", 50, "v");
            produce(broker, "no-policy", 50, "v");
            awaitAtLeast(() -> earliest(admin, new TopicPartition("by-time", 0)), 50, Duration.ofSeconds(10));
            TopicPartition kept = new TopicPartition("no-policy", 0);
            assertThat(earliest(admin, kept)).as("the same retention.ms, and no policy to apply it").isZero();
            assertThat(latest(admin, kept)).isEqualTo(50);
            org.apache.kafka.common.config.ConfigResource topic = new org.apache.kafka.common.config.ConfigResource(
                    org.apache.kafka.common.config.ConfigResource.Type.TOPIC, "no-policy");
            assertThat(admin.describeConfigs(List.of(topic)).all().get(20, TimeUnit.SECONDS).get(topic)
                    .get("cleanup.policy").value()).isEmpty();
        }
    }

    @Test
    void deleteRecordsToTheHighWatermarkSurvivesRestart() throws Exception {
        TopicPartition tp = new TopicPartition("trimmed", 0);
        try (TestBroker broker = TestBroker.start(dataDir, FAST_PASS); Admin admin = broker.admin()) {
            KafkaClients.createTopic(admin, "trimmed", 1, Map.of());
            produce(broker, "trimmed", 30, "old");
            long low = admin.deleteRecords(Map.of(tp, RecordsToDelete.beforeOffset(-1))).lowWatermarks().get(tp)
                    .get(20, TimeUnit.SECONDS).lowWatermark();
            assertThat(low).isEqualTo(30);
            assertThat(earliest(admin, tp)).isEqualTo(30);
            produce(broker, "trimmed", 5, "new");
        }
        try (TestBroker broker = TestBroker.start(dataDir, FAST_PASS); Admin admin = broker.admin();
             KafkaConsumer<String, String> consumer = broker.consumer()) {
            assertThat(earliest(admin, tp)).isEqualTo(30);
            List<ConsumerRecord<String, String>> all = KafkaClients.readAll(consumer, tp, Duration.ofSeconds(20));
            assertThat(all).extracting(ConsumerRecord::offset).containsExactly(30L, 31L, 32L, 33L, 34L);
            assertThat(all).extracting(ConsumerRecord::value).containsOnly("new");
        }
    }

    private static void produce(TestBroker broker, String topic, int n, String value) throws Exception {
        try (KafkaProducer<String, String> producer = broker.producer(Map.of())) {
            for (int i = 0; i < n; i++) {
                producer.send(new ProducerRecord<>(topic, 0, "k" + i, value));
            }
            producer.flush();
        }
    }

    private static long earliest(Admin admin, TopicPartition tp) {
        return offset(admin, tp, OffsetSpec.earliest());
    }

    private static long latest(Admin admin, TopicPartition tp) {
        return offset(admin, tp, OffsetSpec.latest());
    }

    private static long offset(Admin admin, TopicPartition tp, OffsetSpec spec) {
        try {
            return admin.listOffsets(Map.of(tp, spec)).partitionResult(tp).get(20, TimeUnit.SECONDS).offset();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void awaitAtLeast(LongSupplier value, long min, Duration timeout) {
        await().atMost(timeout).pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> assertThat(value.getAsLong()).isGreaterThanOrEqualTo(min));
    }
}
