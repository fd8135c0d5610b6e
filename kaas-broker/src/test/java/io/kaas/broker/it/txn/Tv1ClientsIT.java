package io.kaas.broker.it.txn;

import static io.kaas.broker.it.txn.Txn.READ_COMMITTED;
import static io.kaas.broker.it.txn.Txn.READ_UNCOMMITTED;
import static io.kaas.broker.it.txn.Txn.values;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.it.ExternalProcesses;
import io.kaas.broker.it.KafkaClients;
import io.kaas.broker.it.TestBroker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transactions V1 (AddPartitionsToTxn, AddOffsetsToTxn, no epoch bump on an end): the Java client against a broker
 * started with {@code transaction.version=1}; kafkajs (from npm; a V1 client whatever the broker finalizes) with its
 * own transactional producer and read_committed consumer, on that broker and on one finalized at 2 while a Java
 * producer runs V2 there.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class Tv1ClientsIT {
    @TempDir
    static Path dir;
    static TxnBroker target;
    static KafkaClients broker;

    @BeforeAll
    static void start() throws Exception {
        target = TxnBroker.start(TestBroker.builder(dir).noInitialRebalanceDelay()
                .config("auto.create.topics.enable", "false").config("transaction.version", "1"));
        broker = target.clients;
    }

    @AfterAll
    static void stop() {
        if (target != null) {
            target.close();
        }
    }

    @Test
    void theFinalizedTransactionVersionIs1() throws Exception {
        try (Admin admin = broker.admin()) {
            var features = admin.describeFeatures().featureMetadata().get(20, TimeUnit.SECONDS);
            assertThat(features.finalizedFeatures().get("transaction.version").maxVersionLevel()).isEqualTo((short) 1);
            assertThat(features.supportedFeatures().get("transaction.version").maxVersion()).isEqualTo((short) 2);
        }
    }

    @Test
    void javaClientCommitsAndAbortsWithoutEpochBumps() throws Exception {
        String topic = "tv1-java";
        TopicPartition tp = new TopicPartition(topic, 0);
        broker.createTopic(topic, 1);
        try (KafkaProducer<String, String> producer = Txn.producer(broker, "tv1-java-tx")) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, 0, "k", "c1")).get(20, TimeUnit.SECONDS);
            producer.commitTransaction();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, 0, "k", "a1")).get(20, TimeUnit.SECONDS);
            producer.abortTransaction();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, 0, "k", "c2")).get(20, TimeUnit.SECONDS);
            producer.commitTransaction();
        }
        try (Admin admin = broker.admin()) {
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> admin.describeTransactions(List.of("tv1-java-tx"))
                    .description("tv1-java-tx").get(10, TimeUnit.SECONDS).topicPartitions().isEmpty());
            TransactionDescription d = admin.describeTransactions(List.of("tv1-java-tx")).description("tv1-java-tx")
                    .get(20, TimeUnit.SECONDS);
            assertThat(d.producerEpoch()).as("transactions V1: the epoch stays as InitProducerId gave it").isEqualTo(0);
        }
        assertThat(values(Txn.readAll(broker, READ_COMMITTED, List.of(tp), Duration.ofSeconds(20)))).containsExactly("c1", "c2");
        assertThat(values(Txn.readAll(broker, READ_UNCOMMITTED, List.of(tp), Duration.ofSeconds(20))))
                .containsExactly("c1", "a1", "c2");
    }

    @Test
    void javaClientSendsOffsetsThroughAddOffsetsToTxn() throws Exception {
        String in = "tv1-in";
        String group = "tv1-group";
        TopicPartition inTp = new TopicPartition(in, 0);
        broker.createTopic(in, 1);
        broker.createTopic("tv1-out", 1);
        try (KafkaProducer<String, String> plain = broker.producer()) {
            for (int i = 0; i < 5; i++) {
                plain.send(new ProducerRecord<>(in, 0, "k", "v" + i));
            }
            plain.flush();
        }
        try (KafkaConsumer<String, String> member = broker.groupConsumer(group, Map.of(
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, READ_COMMITTED));
             KafkaProducer<String, String> producer = Txn.producer(broker, "tv1-offsets-tx")) {
            producer.initTransactions();
            member.subscribe(List.of(in));
            List<ConsumerRecord<String, String>> got = new ArrayList<>();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                member.poll(Duration.ofMillis(100)).forEach(got::add);
                return got.size() >= 5;
            });
            producer.beginTransaction();
            got.forEach(r -> producer.send(new ProducerRecord<>("tv1-out", 0, r.key(), r.value())));
            producer.sendOffsetsToTransaction(Map.of(inTp, new OffsetAndMetadata(5)), member.groupMetadata());
            producer.commitTransaction();
            Awaitility.await().atMost(Duration.ofSeconds(20)).ignoreExceptionsInstanceOf(TimeoutException.class)
                    .until(() -> member.committed(Set.of(inTp), Duration.ofSeconds(2)).get(inTp),
                            o -> o != null && o.offset() == 5);
        }
        assertThat(values(Txn.readAll(broker, READ_COMMITTED, List.of(new TopicPartition("tv1-out", 0)),
                Duration.ofSeconds(20)))).containsExactly("v0", "v1", "v2", "v3", "v4");
    }

    /** kafkajs 2 from npm, installed once under target/kafkajs; a node script does the transactions and reads. */
    @Test
    void kafkajsTransactionalProducerAndReadCommittedConsumer() throws Exception {
        kafkajs(broker, "kafkajs-txn", "kafkajs-tx", "kafkajs-group");
    }

    /**
     * Both at once: kafkajs (V1: AddPartitionsToTxn, EndTxn v1) on a broker finalized at transaction.version 2, while
     * a Java producer runs V2 transactions on the same broker.
     */
    @Test
    void kafkajsAndAJavaTv2ProducerOnABrokerFinalizedAtVersion2() throws Exception {
        try (TxnBroker v2 = TxnBroker.start(TestBroker.builder(dir.resolve("v2")).noInitialRebalanceDelay()
                .config("auto.create.topics.enable", "false"))) {
            KafkaClients clients = v2.clients;
            String javaTopic = "java-v2";
            clients.createTopic(javaTopic, 1);
            try (KafkaProducer<String, String> java = Txn.producer(clients, "java-v2-tx")) {
                java.initTransactions();
                java.beginTransaction();
                java.send(new ProducerRecord<>(javaTopic, 0, "k", "java-open")).get(20, TimeUnit.SECONDS);
                kafkajs(clients, "kafkajs-on-v2", "kafkajs-v2-tx", "kafkajs-v2-group"); // while Java's is open
                java.commitTransaction();
            }
            TopicPartition tp = new TopicPartition(javaTopic, 0);
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() ->
                    values(Txn.readAll(clients, READ_COMMITTED, List.of(tp), Duration.ofSeconds(10))).contains("java-open"));
            try (Admin admin = clients.admin()) {
                assertThat(admin.describeTransactions(List.of("java-v2-tx")).description("java-v2-tx")
                        .get(20, TimeUnit.SECONDS).producerEpoch()).as("the Java producer ran V2 (epoch bumped by its end)")
                        .isEqualTo((short) 1);
                assertThat(admin.describeTransactions(List.of("kafkajs-v2-tx")).description("kafkajs-v2-tx")
                        .get(20, TimeUnit.SECONDS).producerEpoch()).as("kafkajs ran V1 (no bump)").isEqualTo((short) 0);
            }
        }
    }

    /** Runs the kafkajs script against {@code clients}: commit, abort, commit on {@code topic}, then a read_committed read. */
    private static void kafkajs(KafkaClients clients, String topic, String transactionalId, String group) throws Exception {
        Path work = ExternalProcesses.kafkajs();
        Path script = work.resolve("transactions.js");
        try (var in = Tv1ClientsIT.class.getResourceAsStream("kafkajs-transactions.js")) {
            Files.write(script, in.readAllBytes());
        }
        TopicPartition tp = new TopicPartition(topic, 0);
        clients.createTopic(topic, 1);
        String output = ExternalProcesses.run(work, Duration.ofSeconds(90), "node", script.toString(), clients.bootstrap(), topic, group,
                transactionalId);
        assertThat(output).contains("SEEN [\"js-c1\",\"js-c2\",\"js-c3\"]");
        assertThat(values(Txn.readAll(clients, READ_COMMITTED, List.of(tp), Duration.ofSeconds(20))))
                .containsExactly("js-c1", "js-c2", "js-c3");
        assertThat(values(Txn.readAll(clients, READ_UNCOMMITTED, List.of(tp), Duration.ofSeconds(20))))
                .containsExactly("js-c1", "js-c2", "js-a1", "js-c3");
    }
}
