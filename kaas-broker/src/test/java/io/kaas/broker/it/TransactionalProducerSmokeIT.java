package io.kaas.broker.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker side of transactions with the real Java producer, once per finalized {@code transaction.version}:
 * commit, abort, commit; read_committed sees only the committed records, in offset order, read_uncommitted all;
 * the LSO holds while a transaction is open; offsets sent in an aborted transaction are dropped, in a committed
 * one committed. Under level 2 the 4.x client runs transactions V2 (the coordinator
 * bumps the epoch at every end), under level 1 it stays on V1 (one epoch). The end-to-end suites (kills, Streams,
 * other clients) are in {@code it.txn}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TransactionalProducerSmokeIT {
    @TempDir
    Path dir;

    @Test
    void commitAbortCommitUnderTransactionsV2() throws Exception {
        try (TestBroker broker = TestBroker.builder(dir).config("transaction.state.log.num.partitions", "3").start()) {
            TransactionDescription d = commitAbortCommit(broker, "v2");
            assertThat(d.producerEpoch()).as("transactions V2 bump the epoch at each of the 5 ends").isEqualTo(5);
        }
    }

    @Test
    void commitAbortCommitOnTheRocksDbEngine() throws Exception {
        try (TestBroker broker = TestBroker.builder(dir).engine(TestBroker.ROCKSDB)
                .config("transaction.state.log.num.partitions", "3").start()) {
            TransactionDescription d = commitAbortCommit(broker, "rocksdb");
            assertThat(d.producerEpoch()).isEqualTo(5);
        }
    }

    @Test
    void commitAbortCommitUnderTransactionsV1() throws Exception {
        try (TestBroker broker = TestBroker.builder(dir).config("transaction.state.log.num.partitions", "3")
                .config("transaction.version", "1").start()) {
            TransactionDescription d = commitAbortCommit(broker, "v1");
            assertThat(d.producerEpoch()).as("transactions V1 keep the epoch InitProducerId gave").isZero();
        }
    }

    @Test
    void aTransactionLeftOpenAcrossARestartIsAbortedByTheNextInstanceOfItsProducer() throws Exception {
        TestBroker.Builder builder = TestBroker.builder(dir).config("transaction.state.log.num.partitions", "3");
        TopicPartition tp = new TopicPartition("restarted", 0);
        TestBroker broker = builder.start();
        try {
            broker.createTopic(tp.topic(), 1);
            KafkaProducer<String, String> zombie = broker.producer(Map.of("transactional.id", "restarted-tx"));
            zombie.initTransactions();
            zombie.beginTransaction();
            zombie.send(new ProducerRecord<>(tp.topic(), 0, "k", "left open"));
            zombie.flush();
            zombie.close(Duration.ZERO); // a graceful close would abort the transaction
            broker = broker.restart();
            try (Admin admin = broker.admin()) {
                assertThat(latest(admin, tp, IsolationLevel.READ_COMMITTED)).as("still open after the restart").isZero();
                try (KafkaProducer<String, String> next = broker.producer(Map.of("transactional.id", "restarted-tx"))) {
                    next.initTransactions(); // fences the zombie and aborts its transaction
                    Awaitility.await("the ABORT marker").atMost(Duration.ofSeconds(20))
                            .until(() -> latest(admin, tp, IsolationLevel.READ_COMMITTED) == 2);
                    next.beginTransaction();
                    next.send(new ProducerRecord<>(tp.topic(), 0, "k", "committed"));
                    next.commitTransaction();
                }
                try (KafkaConsumer<String, String> committed = broker.consumer(Map.of("isolation.level", "read_committed"))) {
                    assertThat(Consume.fromBeginning(committed, Set.of(tp), 1, Duration.ofSeconds(20)))
                            .extracting(ConsumerRecord::value).containsExactly("committed");
                }
            }
        } finally {
            broker.close();
        }
    }

    private static TransactionDescription commitAbortCommit(TestBroker broker, String name) throws Exception {
        String topic = "smoke-" + name;
        String id = "smoke-tx-" + name;
        TopicPartition tp = new TopicPartition(topic, 0);
        broker.createTopic(topic, 1);
        try (KafkaProducer<String, String> producer = broker.producer(Map.of("transactional.id", id));
             Admin admin = broker.admin()) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, 0, "k", "a1"));
            producer.send(new ProducerRecord<>(topic, 0, "k", "a2"));
            producer.commitTransaction();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, 0, "k", "b1"));
            producer.flush(); // else the abort may drop b1 unsent
            producer.abortTransaction();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, 0, "k", "c1"));
            producer.flush();
            // a1 a2 COMMIT b1 ABORT c1: the open transaction starts at 5, the high watermark is 6
            assertThat(latest(admin, tp, IsolationLevel.READ_COMMITTED)).as("LSO while c1's transaction is open")
                    .isEqualTo(5);
            assertThat(latest(admin, tp, IsolationLevel.READ_UNCOMMITTED)).isEqualTo(6);
            producer.commitTransaction();
            Awaitility.await("the last marker").atMost(Duration.ofSeconds(20))
                    .until(() -> latest(admin, tp, IsolationLevel.READ_COMMITTED) == 7);

            try (KafkaConsumer<String, String> committed = broker.consumer(Map.of("isolation.level", "read_committed"));
                 KafkaConsumer<String, String> all = broker.consumer(Map.of("isolation.level", "read_uncommitted"))) {
                List<ConsumerRecord<String, String>> seen = Consume.fromBeginning(committed, Set.of(tp), 3,
                        Duration.ofSeconds(20));
                assertThat(seen).extracting(ConsumerRecord::value).containsExactly("a1", "a2", "c1");
                assertThat(seen).extracting(ConsumerRecord::offset).containsExactly(0L, 1L, 5L);
                assertThat(Consume.fromBeginning(all, Set.of(tp), 4, Duration.ofSeconds(20)))
                        .extracting(ConsumerRecord::value).containsExactly("a1", "a2", "b1", "c1");
            }
            // offsets inside a transaction (AddOffsetsToTxn + TxnOffsetCommit under V1, TxnOffsetCommit v5 under V2):
            // visible to the group once the transaction commits, never when it aborts
            String group = "smoke-group-" + name;
            producer.beginTransaction();
            producer.sendOffsetsToTransaction(Map.of(tp, new OffsetAndMetadata(2)), new ConsumerGroupMetadata(group));
            producer.abortTransaction();
            producer.beginTransaction();
            producer.sendOffsetsToTransaction(Map.of(tp, new OffsetAndMetadata(3)), new ConsumerGroupMetadata(group));
            producer.commitTransaction();
            Awaitility.await("the committed offset").atMost(Duration.ofSeconds(20)).until(() -> {
                OffsetAndMetadata o = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()
                        .get(20, TimeUnit.SECONDS).get(tp);
                return o != null && o.offset() == 3;
            });
            TransactionDescription d = admin.describeTransactions(List.of(id)).description(id).get(20, TimeUnit.SECONDS);
            assertThat(d.state()).isEqualTo(TransactionState.COMPLETE_COMMIT);
            assertThat(d.topicPartitions()).isEmpty();
            assertThat(admin.listTransactions().all().get(20, TimeUnit.SECONDS))
                    .anySatisfy(l -> assertThat(l.transactionalId()).isEqualTo(id));
            return d;
        }
    }

    private static long latest(Admin admin, TopicPartition tp, IsolationLevel isolation) throws Exception {
        return admin.listOffsets(Map.of(tp, OffsetSpec.latest()), new ListOffsetsOptions(isolation)).partitionResult(tp)
                .get(20, TimeUnit.SECONDS).offset();
    }
}
