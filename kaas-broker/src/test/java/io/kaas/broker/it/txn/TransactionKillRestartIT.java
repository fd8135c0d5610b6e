package io.kaas.broker.it.txn;

import static io.kaas.broker.it.txn.Txn.READ_COMMITTED;
import static io.kaas.broker.it.txn.Txn.READ_UNCOMMITTED;
import static io.kaas.broker.it.txn.Txn.offsets;
import static io.kaas.broker.it.txn.Txn.values;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.it.BrokerJvm;
import io.kaas.broker.it.KafkaClients;
import io.kaas.broker.it.TestBroker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Transaction state across a SIGKILL of the broker process, over each persistent engine: an aborted transaction
 * stays aborted for read_committed, an open one still holds the last stable offset at its first record after the
 * restart, and the producer that opened it commits it once the broker is back (the coordinator's state survived).
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class TransactionKillRestartIT {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {TestBroker.SEGMENTS, TestBroker.ROCKSDB})
    void abortedAndOpenTransactionsSurviveAKill(String engine) throws Exception {
        String topic = "kill-txn";
        TopicPartition tp = new TopicPartition(topic, 0);
        int port = BrokerJvm.freePort();
        Path log = Files.createDirectories(Path.of("target")).resolve("TransactionKillRestartIT-" + engine + ".log");
        Files.deleteIfExists(log);
        Path data = Files.createDirectories(dir.resolve("data"));
        List<String> overrides = new ArrayList<>(List.of("storage.engine=" + engine));
        if (engine.equals(TestBroker.ROCKSDB)) {
            Path plugins = dir.resolve("plugins");
            TestBroker.installPlugin("kaas-engine-rocksdb", plugins);
            overrides.addAll(List.of("plugins.dir=" + plugins, "storage.rocksdb.block.cache.bytes=8388608"));
        }
        String[] config = overrides.toArray(String[]::new);
        BrokerJvm broker = BrokerJvm.start(data, port, log, config);
        KafkaClients clients = KafkaClients.at("127.0.0.1:" + port);
        try {
            clients.createTopic(topic, 1);
            try (KafkaProducer<String, String> plain = clients.producer();
                 KafkaProducer<String, String> txn = Txn.producer(clients, "kill-txn-tx",
                         Map.of(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 120_000,
                                 ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 60_000,
                                 ProducerConfig.MAX_BLOCK_MS_CONFIG, 60_000))) {
                plain.send(new ProducerRecord<>(topic, 0, "k", "p0")).get(20, TimeUnit.SECONDS); // 0
                txn.initTransactions();
                txn.beginTransaction();
                txn.send(new ProducerRecord<>(topic, 0, "k", "aborted")).get(20, TimeUnit.SECONDS); // 1
                txn.abortTransaction(); // ABORT at 2
                plain.send(new ProducerRecord<>(topic, 0, "k", "p1")).get(20, TimeUnit.SECONDS); // 3
                txn.beginTransaction();
                txn.send(new ProducerRecord<>(topic, 0, "k", "open-0")).get(20, TimeUnit.SECONDS); // 4
                txn.send(new ProducerRecord<>(topic, 0, "k", "open-1")).get(20, TimeUnit.SECONDS); // 5
                plain.send(new ProducerRecord<>(topic, 0, "k", "p2")).get(20, TimeUnit.SECONDS); // 6
                assertThat(endOffset(clients, tp, IsolationLevel.READ_COMMITTED)).isEqualTo(4);

                broker.kill();
                broker = BrokerJvm.start(data, port, log, config);

                assertThat(endOffset(clients, tp, IsolationLevel.READ_COMMITTED)).as("the LSO after the kill").isEqualTo(4);
                assertThat(endOffset(clients, tp, IsolationLevel.READ_UNCOMMITTED)).isEqualTo(7);
                assertThat(values(Txn.readAll(clients, READ_COMMITTED, List.of(tp), Duration.ofSeconds(20))))
                        .containsExactly("p0", "p1");
                try (Admin admin = clients.admin()) {
                    assertThat(admin.describeTransactions(List.of("kill-txn-tx")).description("kill-txn-tx")
                            .get(20, TimeUnit.SECONDS).state()).isEqualTo(TransactionState.ONGOING);
                }
                txn.commitTransaction(); // COMMIT at 7
            }
            Awaitility.await().atMost(Duration.ofSeconds(30))
                    .until(() -> endOffset(clients, tp, IsolationLevel.READ_COMMITTED) == 8);
            var committed = Txn.readAll(clients, READ_COMMITTED, List.of(tp), Duration.ofSeconds(20));
            assertThat(values(committed)).containsExactly("p0", "p1", "open-0", "open-1", "p2");
            assertThat(offsets(committed)).containsExactly(0L, 3L, 4L, 5L, 6L);
            assertThat(values(Txn.readAll(clients, READ_UNCOMMITTED, List.of(tp), Duration.ofSeconds(20))))
                    .containsExactly("p0", "aborted", "p1", "open-0", "open-1", "p2");

            broker.kill(); // and once more: the committed state and the aborted range are durable
            broker = BrokerJvm.start(data, port, log, config);
            assertThat(values(Txn.readAll(clients, READ_COMMITTED, List.of(tp), Duration.ofSeconds(20))))
                    .containsExactly("p0", "p1", "open-0", "open-1", "p2");
            assertThat(endOffset(clients, tp, IsolationLevel.READ_COMMITTED)).isEqualTo(8);
        } finally {
            broker.kill();
        }
    }

    private static long endOffset(KafkaClients clients, TopicPartition tp, IsolationLevel isolation) throws Exception {
        try (Admin admin = clients.admin()) {
            return admin.listOffsets(Map.of(tp, OffsetSpec.latest()), new ListOffsetsOptions(isolation))
                    .partitionResult(tp).get(20, TimeUnit.SECONDS).offset();
        }
    }
}
