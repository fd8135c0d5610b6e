package io.kaas.broker.it.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kaas.broker.it.KafkaClients;
import io.kaas.broker.it.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** cleanup.policy=compact through the real Java client: latest value per key, offsets kept, tombstones expire. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class CompactedTopicIT {
    private static final List<String> CODECS = List.of("none", "gzip", "snappy", "lz4", "zstd");

    @TempDir
    Path dataDir;

    @Test
    void keepsTheLatestValuePerKeyAtItsOffsetAndDropsTombstonesAfterDeleteRetention() throws Exception {
        try (TestBroker broker = TestBroker.start(dataDir, Map.of("storage.segments.retention.check.interval.ms", "100",
                "log.cleaner.backoff.ms", "100"));
             Admin admin = broker.admin(); KafkaConsumer<String, String> consumer = broker.consumer()) {
            Map<String, Map<String, Long>> latestOffsets = new HashMap<>();
            for (String codec : CODECS) {
                KafkaClients.createTopic(admin, "compacted-" + codec, 1, Map.of("cleanup.policy", "compact",
                        "segment.ms", "50", "delete.retention.ms", "3000", "min.cleanable.dirty.ratio", "0.01"));
                Map<String, Long> expected = produceWithOverwrites(broker, "compacted-" + codec, codec);
                latestOffsets.put(codec, expected);
                // k0 and k1 end with a tombstone: still readable (as null values) within delete.retention.ms
                awaitRead(consumer, new TopicPartition("compacted-" + codec, 0), expected, Duration.ofSeconds(2));
            }
            for (String codec : CODECS) {
                TopicPartition tp = new TopicPartition("compacted-" + codec, 0);
                Map<String, Long> live = new LinkedHashMap<>(latestOffsets.get(codec));
                live.remove("k0");
                live.remove("k1");
                // the tombstones go once delete.retention.ms (3 s) has passed, at a later cleaning pass
                awaitRead(consumer, tp, live, Duration.ofSeconds(3 + 20));
            }
        }
    }

    /** Five rounds over ten keys, one segment per round (segment.ms=50), k0 and k1 deleted in the last. */
    private static Map<String, Long> produceWithOverwrites(TestBroker broker, String topic, String codec) throws Exception {
        Map<String, Long> latest = new LinkedHashMap<>();
        try (KafkaProducer<String, String> producer = broker.producer(Map.of(ProducerConfig.COMPRESSION_TYPE_CONFIG, codec,
                ProducerConfig.LINGER_MS_CONFIG, 20))) {
            for (int round = 0; round < 5; round++) {
                List<java.util.concurrent.Future<RecordMetadata>> sent = new java.util.ArrayList<>();
                for (int k = 0; k < 10; k++) {
                    String value = round == 4 && k < 2 ? null : "v" + round + "-" + k;
                    sent.add(producer.send(new ProducerRecord<>(topic, 0, "k" + k, value)));
                }
                for (int k = 0; k < 10; k++) {
                    latest.put("k" + k, sent.get(k).get(10, TimeUnit.SECONDS).offset());
                }
                // Not a wait for a condition: segment.ms (50 ms) passing is what rolls the next round into a new segment.
                Thread.sleep(60);
            }
        }
        return latest;
    }

    /** Reads until exactly {@code expected} (key -> offset, value as the producer wrote it) is what the partition holds. */
    private static void awaitRead(KafkaConsumer<String, String> consumer, TopicPartition tp, Map<String, Long> expected,
                                  Duration timeout) {
        // in this thread: the consumer is closed by it afterwards
        await(tp + " after compaction").atMost(timeout).pollInterval(Duration.ofMillis(200)).pollInSameThread()
                .untilAsserted(() -> {
                    List<ConsumerRecord<String, String>> records = KafkaClients.readAll(consumer, tp, Duration.ofSeconds(10));
                    Map<String, Long> got = new LinkedHashMap<>();
                    for (ConsumerRecord<String, String> r : records) {
                        got.put(r.key(), r.offset());
                    }
                    assertThat(got).as(tp + " after compaction").isEqualTo(expected);
                    assertThat(records).as("one record per key").hasSize(got.size());
                    assertThat(records).as("the last value of each key").allSatisfy(r -> {
                        int k = Integer.parseInt(r.key().substring(1));
                        if (r.value() == null) {
                            assertThat(k).as("a tombstone's key").isLessThan(2);
                        } else {
                            assertThat(r.value()).isEqualTo("v4-" + k);
                        }
                    });
                });
    }

    @Test
    void refusesKeylessRecordsOnCompactedTopicsWithInvalidRecord() throws Exception {
        try (TestBroker broker = TestBroker.start(dataDir, Map.of()); Admin admin = broker.admin()) {
            KafkaClients.createTopic(admin, "keyed", 1, Map.of("cleanup.policy", "compact,delete"));
            KafkaClients.createTopic(admin, "plain", 1, Map.of());
            for (String codec : List.of("none", "zstd")) {
                try (KafkaProducer<String, String> producer = broker.producer(Map.of(ProducerConfig.COMPRESSION_TYPE_CONFIG, codec,
                        ProducerConfig.RETRIES_CONFIG, 0, ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false))) {
                    assertThatThrownBy(() -> producer.send(new ProducerRecord<>("keyed", 0, null, "no key")).get(10, TimeUnit.SECONDS))
                            .isInstanceOf(ExecutionException.class).cause().isInstanceOf(InvalidRecordException.class)
                            .hasMessageContaining("Compacted topic cannot accept message without key");
                    assertThat(producer.send(new ProducerRecord<>("keyed", 0, "key", "ok")).get(10, TimeUnit.SECONDS).offset())
                            .isGreaterThanOrEqualTo(0);
                    assertThat(producer.send(new ProducerRecord<>("plain", 0, null, "no key needed")).get(10, TimeUnit.SECONDS)
                            .offset()).isGreaterThanOrEqualTo(0);
                }
            }
        }
    }
}
