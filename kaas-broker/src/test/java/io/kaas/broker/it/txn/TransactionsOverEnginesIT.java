package io.kaas.broker.it.txn;

import static io.kaas.broker.it.txn.Txn.READ_COMMITTED;
import static io.kaas.broker.it.txn.Txn.READ_UNCOMMITTED;
import static io.kaas.broker.it.txn.Txn.offsets;
import static io.kaas.broker.it.txn.Txn.values;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.it.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The same transactions over every storage engine the broker ships or tests with (the built-in segments, the
 * RocksDB plugin, the example in-memory plugin): the last stable offset while a transaction is open, then commit,
 * abort, commit read at both isolation levels.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class TransactionsOverEnginesIT {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {TestBroker.SEGMENTS, TestBroker.ROCKSDB, "memory"})
    void transactionsReadTheSameOverEachEngine(String engine) throws Exception {
        String topic = "engine-txn";
        TopicPartition tp = new TopicPartition(topic, 0);
        try (TestBroker broker = TestBroker.builder(dir).engine(engine).config("auto.create.topics.enable", "false")
                .start()) {
            broker.createTopic(topic, 1);
            try (KafkaProducer<String, String> producer = Txn.producer(broker, "engine-tx")) {
                producer.initTransactions();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>(topic, 0, "k", "c1")).get(20, TimeUnit.SECONDS); // 0
                try (KafkaConsumer<String, String> rc = Txn.consumer(broker, READ_COMMITTED);
                     KafkaConsumer<String, String> ru = Txn.consumer(broker, READ_UNCOMMITTED)) {
                    assertThat(rc.endOffsets(List.of(tp))).as("%s: the LSO while open", engine).containsEntry(tp, 0L);
                    assertThat(ru.endOffsets(List.of(tp))).containsEntry(tp, 1L);
                }
                producer.commitTransaction(); // 1
                producer.beginTransaction();
                producer.send(new ProducerRecord<>(topic, 0, "k", "a1")).get(20, TimeUnit.SECONDS); // 2
                producer.abortTransaction(); // 3
                producer.beginTransaction();
                producer.send(new ProducerRecord<>(topic, 0, "k", "c2")).get(20, TimeUnit.SECONDS); // 4
                producer.commitTransaction(); // 5
            }
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> {
                try (KafkaConsumer<String, String> rc = Txn.consumer(broker, READ_COMMITTED)) {
                    return rc.endOffsets(List.of(tp)).get(tp) == 6;
                }
            });
            var committed = Txn.readAll(broker, READ_COMMITTED, List.of(tp), Duration.ofSeconds(20));
            assertThat(values(committed)).as(engine).containsExactly("c1", "c2");
            assertThat(offsets(committed)).containsExactly(0L, 4L);
            assertThat(values(Txn.readAll(broker, READ_UNCOMMITTED, List.of(tp), Duration.ofSeconds(20))))
                    .as(engine).containsExactly("c1", "a1", "c2");
        }
    }
}
