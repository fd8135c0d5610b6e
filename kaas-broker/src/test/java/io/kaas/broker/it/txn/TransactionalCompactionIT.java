package io.kaas.broker.it.txn;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.it.KafkaClients;
import io.kaas.broker.it.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A compacted topic written in transactions: compaction drops the aborted records (an aborted value never
 * replaces the committed one of its key) and keeps the latest committed value per key, so read_committed and
 * read_uncommitted read the same latest values afterwards.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class TransactionalCompactionIT {
    @TempDir
    static Path dir;
    static TxnBroker target;
    static KafkaClients broker;

    @BeforeAll
    static void start() throws Exception {
        target = TxnBroker.start(TestBroker.builder(dir).config("auto.create.topics.enable", "false")
                .config("storage.segments.retention.check.interval.ms", "100").config("log.cleaner.backoff.ms", "100"));
        broker = target.clients;
    }

    @AfterAll
    static void stop() {
        if (target != null) {
            target.close();
        }
    }

    @Test
    void compactionDropsAbortedRecordsAndKeepsTheCommittedValues() throws Exception {
        String topic = "txn-compacted";
        TopicPartition tp = new TopicPartition(topic, 0);
        broker.createTopic(topic, 1, Map.of("cleanup.policy", "compact", "segment.ms", "50",
                "delete.retention.ms", "1000", "min.cleanable.dirty.ratio", "0.01"));
        try (KafkaProducer<String, String> txn = Txn.producer(broker, "compacted-tx");
             KafkaProducer<String, String> plain = broker.producer()) {
            txn.initTransactions();
            transaction(txn, topic, true, "k1", "committed-1", "k2", "committed-1");
            transaction(txn, topic, false, "k1", "aborted-2", "k3", "aborted-2");
            transaction(txn, topic, true, "k2", "committed-3");
            for (int i = 0; i < 5; i++) { // later segments, so the transactional ones are no longer active
                Thread.sleep(100); // not a wait for a condition: segment.ms passing rolls the next write
                plain.send(new ProducerRecord<>(topic, 0, "k9", "plain-" + i)).get(20, TimeUnit.SECONDS);
            }
        }
        Map<String, String> latest = Map.of("k1", "committed-1", "k2", "committed-3", "k9", "plain-4");
        Awaitility.await("compaction of the transactional segments").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500)).until(() -> {
                    List<ConsumerRecord<String, String>> all = Txn.readAll(broker, Txn.READ_UNCOMMITTED, List.of(tp),
                            Duration.ofSeconds(20));
                    // the aborted records and k2's superseded value are gone (k9's last segments may stay uncleaned)
                    return all.stream().noneMatch(r -> r.value().startsWith("aborted")
                            || (r.key().equals("k2") && r.value().equals("committed-1")));
                });
        assertThat(byKey(Txn.readAll(broker, Txn.READ_UNCOMMITTED, List.of(tp), Duration.ofSeconds(20))))
                .as("an aborted value never replaces the committed one").isEqualTo(latest);
        assertThat(byKey(Txn.readAll(broker, Txn.READ_COMMITTED, List.of(tp), Duration.ofSeconds(20))))
                .isEqualTo(latest);
    }

    private static void transaction(KafkaProducer<String, String> producer, String topic, boolean commit,
                                    String... keyValues) throws Exception {
        Thread.sleep(100); // not a wait for a condition: each transaction in its own segment
        producer.beginTransaction();
        for (int i = 0; i < keyValues.length; i += 2) {
            producer.send(new ProducerRecord<>(topic, 0, keyValues[i], keyValues[i + 1])).get(20, TimeUnit.SECONDS);
        }
        if (commit) {
            producer.commitTransaction();
        } else {
            producer.abortTransaction();
        }
    }

    private static Map<String, String> byKey(List<ConsumerRecord<String, String>> records) {
        Map<String, String> out = new LinkedHashMap<>();
        records.forEach(r -> out.put(r.key(), r.value()));
        return out;
    }
}
