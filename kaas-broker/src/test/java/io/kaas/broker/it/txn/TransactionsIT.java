package io.kaas.broker.it.txn;

import static io.kaas.broker.it.txn.Txn.READ_COMMITTED;
import static io.kaas.broker.it.txn.Txn.READ_UNCOMMITTED;
import static io.kaas.broker.it.txn.Txn.causedBy;
import static io.kaas.broker.it.txn.Txn.offsets;
import static io.kaas.broker.it.txn.Txn.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.kaas.broker.it.KafkaClients;
import io.kaas.broker.it.TestBroker;
import io.kaas.broker.it.txn.RawTxn.ProducerIdAndEpoch;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.FeatureMetadata;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractResponse;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transactions end to end with the Java producer and consumer (kafka-clients, transactions V2 as a 4.x client
 * negotiates it): commit and abort as read at both isolation levels, the last stable offset while a transaction
 * is open, zombie fencing, the timeout abort, CONCURRENT_TRANSACTIONS while an end completes, and offsets committed
 * with the output by sendOffsetsToTransaction.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TransactionsIT {
    @TempDir
    static Path dir;
    static TxnBroker target;
    static KafkaClients broker;

    @BeforeAll
    static void start() throws Exception {
        target = TxnBroker.start(TestBroker.builder(dir).noInitialRebalanceDelay()
                .config("auto.create.topics.enable", "false")
                .config("transaction.abort.timed.out.transaction.cleanup.interval.ms", "200"));
        broker = target.clients;
    }

    @AfterAll
    static void stop() {
        if (target != null) {
            target.close();
        }
    }

    private static void send(KafkaProducer<String, String> producer, String topic, int partition, String... values)
            throws Exception {
        for (String v : values) {
            producer.send(new ProducerRecord<>(topic, partition, "k", v)).get(20, TimeUnit.SECONDS);
        }
    }

    @Test
    void commitAbortCommitIsReadInOffsetOrderAtBothIsolationLevels() throws Exception {
        String topic = "cac";
        TopicPartition tp = new TopicPartition(topic, 0);
        broker.createTopic(topic, 1);
        try (KafkaProducer<String, String> producer = Txn.producer(broker, "cac-tx")) {
            producer.initTransactions();
            producer.beginTransaction();
            send(producer, topic, 0, "a0", "a1", "a2");
            producer.commitTransaction();
            producer.beginTransaction();
            send(producer, topic, 0, "b0", "b1", "b2");
            producer.abortTransaction();
            producer.beginTransaction();
            send(producer, topic, 0, "c0", "c1", "c2");
            producer.commitTransaction();
        }
        // a0-a2 at 0-2, COMMIT marker at 3, b0-b2 at 4-6, ABORT at 7, c0-c2 at 8-10, COMMIT at 11
        Awaitility.await("the last marker is written").atMost(Duration.ofSeconds(20))
                .until(() -> endOffset(tp, IsolationLevel.READ_COMMITTED) == 12);
        List<ConsumerRecord<String, String>> committed = Txn.readAll(broker, READ_COMMITTED, List.of(tp), Duration.ofSeconds(20));
        assertThat(values(committed)).containsExactly("a0", "a1", "a2", "c0", "c1", "c2");
        assertThat(offsets(committed)).containsExactly(0L, 1L, 2L, 8L, 9L, 10L);
        List<ConsumerRecord<String, String>> all = Txn.readAll(broker, READ_UNCOMMITTED, List.of(tp), Duration.ofSeconds(20));
        assertThat(values(all)).containsExactly("a0", "a1", "a2", "b0", "b1", "b2", "c0", "c1", "c2");
        assertThat(offsets(all)).containsExactly(0L, 1L, 2L, 4L, 5L, 6L, 8L, 9L, 10L);
        assertThat(endOffset(tp, IsolationLevel.READ_UNCOMMITTED)).isEqualTo(12);

        try (Admin admin = broker.admin()) {
            TransactionDescription d = admin.describeTransactions(List.of("cac-tx")).description("cac-tx")
                    .get(20, TimeUnit.SECONDS);
            assertThat(d.state()).isEqualTo(TransactionState.COMPLETE_COMMIT);
            assertThat(d.producerEpoch()).as("transactions V2: the epoch is bumped by every end (3 ends)").isEqualTo(3);
            assertThat(d.topicPartitions()).isEmpty();
        }
    }

    /**
     * Two producers' transactions interleaved on one partition, committed and aborted crosswise: read_committed
     * drops exactly the aborted ones, also when it fetches a few records at a time (aborted ranges per fetch).
     */
    @Test
    void interleavedTransactionsOfTwoProducersAreFilteredExactly() throws Exception {
        String topic = "interleaved";
        TopicPartition tp = new TopicPartition(topic, 0);
        broker.createTopic(topic, 1);
        try (KafkaProducer<String, String> a = Txn.producer(broker, "interleaved-a");
             KafkaProducer<String, String> b = Txn.producer(broker, "interleaved-b")) {
            a.initTransactions();
            b.initTransactions();
            a.beginTransaction();
            b.beginTransaction();
            send(a, topic, 0, "a1"); // 0
            send(b, topic, 0, "b1"); // 1
            send(a, topic, 0, "a2"); // 2
            send(b, topic, 0, "b2"); // 3
            a.commitTransaction(); // 4
            b.abortTransaction(); // 5
            a.beginTransaction();
            b.beginTransaction();
            send(a, topic, 0, "a3"); // 6
            send(b, topic, 0, "b3"); // 7
            b.commitTransaction(); // 8
            a.abortTransaction(); // 9
        }
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> endOffset(tp, IsolationLevel.READ_COMMITTED) == 10);
        for (int fetchBytes : new int[] {1_048_576, 1}) {
            try (KafkaConsumer<String, String> rc = broker.consumer(Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, READ_COMMITTED,
                    ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, fetchBytes))) {
                List<ConsumerRecord<String, String>> got = Txn.readAll(rc, List.of(tp), Duration.ofSeconds(20));
                assertThat(values(got)).as("max.partition.fetch.bytes=%d", fetchBytes).containsExactly("a1", "a2", "b3");
                assertThat(offsets(got)).containsExactly(0L, 2L, 7L);
            }
        }
        assertThat(values(Txn.readAll(broker, READ_UNCOMMITTED, List.of(tp), Duration.ofSeconds(20))))
                .containsExactly("a1", "b1", "a2", "b2", "a3", "b3");
    }

    @Test
    void brokerAdvertisesTransactionVersion2AndGroupVersion1() throws Exception {
        try (Admin admin = broker.admin()) {
            FeatureMetadata features = admin.describeFeatures().featureMetadata().get(20, TimeUnit.SECONDS);
            assertThat(features.finalizedFeatures().get("transaction.version").maxVersionLevel()).isEqualTo((short) 2);
            assertThat(features.supportedFeatures().get("transaction.version").minVersion()).isEqualTo((short) 0);
            assertThat(features.supportedFeatures().get("transaction.version").maxVersion()).isEqualTo((short) 2);
            assertThat(features.finalizedFeatures().get("group.version").maxVersionLevel()).isEqualTo((short) 1);
            assertThat(features.finalizedFeaturesEpoch()).isPresent();
        }
    }

    @Test
    void lastStableOffsetAndEndOffsetsWhileATransactionIsOpen() throws Exception {
        String topic = "lso";
        TopicPartition tp = new TopicPartition(topic, 0);
        broker.createTopic(topic, 1);
        try (KafkaProducer<String, String> plain = broker.producer();
             KafkaProducer<String, String> txn = Txn.producer(broker, "lso-tx")) {
            send(plain, topic, 0, "p0", "p1", "p2");
            txn.initTransactions();
            txn.beginTransaction();
            send(txn, topic, 0, "t0", "t1"); // offsets 3-4, open
            send(plain, topic, 0, "p3"); // offset 5, after the open transaction

            assertThat(endOffset(tp, IsolationLevel.READ_UNCOMMITTED)).isEqualTo(6);
            assertThat(endOffset(tp, IsolationLevel.READ_COMMITTED)).as("the LSO: the first offset of the open txn")
                    .isEqualTo(3);
            try (KafkaConsumer<String, String> rc = Txn.consumer(broker, READ_COMMITTED);
                 KafkaConsumer<String, String> ru = Txn.consumer(broker, READ_UNCOMMITTED)) {
                assertThat(rc.endOffsets(List.of(tp))).containsEntry(tp, 3L);
                assertThat(ru.endOffsets(List.of(tp))).containsEntry(tp, 6L);
                List<ConsumerRecord<String, String>> stable = Txn.readAll(rc, List.of(tp), Duration.ofSeconds(20));
                assertThat(values(stable)).containsExactly("p0", "p1", "p2");
                // nothing beyond the LSO, even if asked again for a while
                ConsumerRecords<String, String> more = rc.poll(Duration.ofMillis(500));
                assertThat(more.isEmpty()).as("read_committed stops at the LSO: %s", more).isTrue();
                assertThat(rc.position(tp)).isEqualTo(3);
                assertThat(values(Txn.readAll(ru, List.of(tp), Duration.ofSeconds(20))))
                        .containsExactly("p0", "p1", "p2", "t0", "t1", "p3");

                txn.commitTransaction(); // COMMIT marker at 6
                Awaitility.await("the LSO moves past the committed transaction").atMost(Duration.ofSeconds(20))
                        .until(() -> endOffset(tp, IsolationLevel.READ_COMMITTED) == 7);
                List<ConsumerRecord<String, String>> rest = new ArrayList<>();
                Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> {
                    rc.poll(Duration.ofMillis(100)).forEach(rest::add);
                    return rest.size() >= 3;
                });
                assertThat(values(rest)).containsExactly("t0", "t1", "p3");
                assertThat(offsets(rest)).containsExactly(3L, 4L, 5L);
            }
            assertThat(endOffset(tp, IsolationLevel.READ_UNCOMMITTED)).isEqualTo(7);
        }
    }

    @Test
    void aSecondProducerWithTheSameIdFencesTheFirstAndAbortsItsTransaction() throws Exception {
        String topic = "zombie";
        TopicPartition tp = new TopicPartition(topic, 0);
        broker.createTopic(topic, 1);
        try (KafkaProducer<String, String> first = Txn.producer(broker, "zombie-tx");
             KafkaProducer<String, String> second = Txn.producer(broker, "zombie-tx")) {
            first.initTransactions();
            first.beginTransaction();
            send(first, topic, 0, "from-zombie");

            second.initTransactions(); // fences the first and aborts its open transaction
            second.beginTransaction();
            send(second, topic, 0, "from-second");

            Throwable onSend = catchThrowable(() -> first.send(new ProducerRecord<>(topic, 0, "k", "zombie-again"))
                    .get(20, TimeUnit.SECONDS));
            assertThat(onSend).as("a fenced producer's send fails").isNotNull();
            assertThat(causedBy(onSend, ProducerFencedException.class) || causedBy(onSend, InvalidProducerEpochException.class))
                    .as("fenced: %s", onSend).isTrue();
            assertThatThrownBy(first::commitTransaction).isInstanceOf(KafkaException.class);
            second.commitTransaction();
        }
        Awaitility.await().atMost(Duration.ofSeconds(20))
                .until(() -> endOffset(tp, IsolationLevel.READ_COMMITTED) == endOffset(tp, IsolationLevel.READ_UNCOMMITTED));
        assertThat(values(Txn.readAll(broker, READ_COMMITTED, List.of(tp), Duration.ofSeconds(20))))
                .containsExactly("from-second");
        assertThat(values(Txn.readAll(broker, READ_UNCOMMITTED, List.of(tp), Duration.ofSeconds(20))))
                .as("the zombie's first record stays, aborted; its second was never written")
                .containsExactly("from-zombie", "from-second");
    }

    @Test
    void aTransactionOverItsTimeoutIsAbortedAndItsProducerFenced() throws Exception {
        String topic = "timeout";
        TopicPartition tp = new TopicPartition(topic, 0);
        broker.createTopic(topic, 1);
        try (KafkaProducer<String, String> producer = Txn.producer(broker, "timeout-tx",
                Map.of(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 1_000))) {
            producer.initTransactions();
            producer.beginTransaction();
            send(producer, topic, 0, "expires");
            try (Admin admin = broker.admin()) {
                Awaitility.await("the coordinator aborts the transaction after its 1 s timeout")
                        .atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                        .until(() -> admin.describeTransactions(List.of("timeout-tx")).description("timeout-tx")
                                .get(10, TimeUnit.SECONDS).state() == TransactionState.COMPLETE_ABORT);
            }
            Awaitility.await("the abort marker is written").atMost(Duration.ofSeconds(20))
                    .until(() -> endOffset(tp, IsolationLevel.READ_COMMITTED) == 2);
            Throwable late = catchThrowable(() -> producer.send(new ProducerRecord<>(topic, 0, "k", "too-late"))
                    .get(20, TimeUnit.SECONDS));
            assertThat(late).as("a send after the timeout abort fails").isNotNull();
            assertThat(causedBy(late, ProducerFencedException.class) || causedBy(late, InvalidProducerEpochException.class))
                    .as("fenced: %s", late).isTrue();
            assertThatThrownBy(producer::commitTransaction).isInstanceOf(KafkaException.class);
        }
        assertThat(Txn.readAll(broker, READ_COMMITTED, List.of(tp), Duration.ofSeconds(20))).isEmpty();
        assertThat(values(Txn.readAll(broker, READ_UNCOMMITTED, List.of(tp), Duration.ofSeconds(20))))
                .containsExactly("expires");
        assertThat(endOffset(tp, IsolationLevel.READ_UNCOMMITTED)).as("the record and the ABORT marker").isEqualTo(2);
    }

    /** A batch the broker refuses (over the topic's max.message.bytes) is an abortable error: abort, then go on. */
    @Test
    void anAbortableErrorIsRecoveredByAbortingAndTheNextTransactionCommits() throws Exception {
        String topic = "abortable";
        TopicPartition tp = new TopicPartition(topic, 0);
        broker.createTopic(topic, 1, Map.of("max.message.bytes", "1024"));
        try (KafkaProducer<String, String> producer = Txn.producer(broker, "abortable-tx")) {
            producer.initTransactions();
            producer.beginTransaction();
            send(producer, topic, 0, "before-the-error");
            Throwable tooLarge = catchThrowable(() -> producer.send(new ProducerRecord<>(topic, 0, "k", "x".repeat(4_000)))
                    .get(20, TimeUnit.SECONDS));
            assertThat(causedBy(tooLarge, RecordTooLargeException.class)).as("refused: %s", tooLarge).isTrue();
            assertThatThrownBy(producer::commitTransaction).isInstanceOf(KafkaException.class);
            producer.abortTransaction();
            producer.beginTransaction();
            send(producer, topic, 0, "after-the-abort");
            producer.commitTransaction();
        }
        Awaitility.await().atMost(Duration.ofSeconds(20))
                .until(() -> endOffset(tp, IsolationLevel.READ_COMMITTED) == endOffset(tp, IsolationLevel.READ_UNCOMMITTED));
        assertThat(values(Txn.readAll(broker, READ_COMMITTED, List.of(tp), Duration.ofSeconds(20))))
                .containsExactly("after-the-abort");
        assertThat(values(Txn.readAll(broker, READ_UNCOMMITTED, List.of(tp), Duration.ofSeconds(20))))
                .containsExactly("before-the-error", "after-the-abort");
    }

    /**
     * EndTxn and an AddPartitionsToTxn for the next transaction sent back to back on one connection: while the
     * markers of the first are written to 24 partitions, the coordinator answers CONCURRENT_TRANSACTIONS; the client
     * retries and the next transaction then opens.
     */
    @Test
    void aQuickReBeginGetsConcurrentTransactionsUntilTheEndIsComplete() throws Exception {
        String topic = "concurrent";
        int partitions = 24;
        broker.createTopic(topic, partitions);
        List<Integer> all = IntStream.range(0, partitions).boxed().toList();
        RawTxn raw = new RawTxn(target.port());
        String id = "concurrent-tx";
        ProducerIdAndEpoch pid = raw.initProducerId(id, 60_000);
        List<Errors> reBegins = new ArrayList<>();
        int rounds = 0;
        while (rounds < 3 && !reBegins.contains(Errors.CONCURRENT_TRANSACTIONS)) {
            raw.addPartitionsUntilDone(id, pid, topic, all);
            for (int p : all) {
                assertThat(raw.produceError(RawTxn.produce(id, topic, p,
                        RawTxn.transactionalBatch(pid, rounds, "r" + rounds + "-p" + p)), (short) 10))
                        .isEqualTo(Errors.NONE);
            }
            List<AbstractResponse> answers = raw.sendPipelined(List.of(RawTxn.endTxn(id, pid, true),
                    RawTxn.addPartitions(id, pid, topic, List.of(0))));
            assertThat(RawTxn.endTxnError(answers.get(0))).isEqualTo(Errors.NONE);
            reBegins.add(RawTxn.addPartitionsError(answers.get(1)));
            rounds++;
            if (reBegins.get(reBegins.size() - 1) == Errors.NONE) {
                assertThat(RawTxn.endTxnError(raw.send(RawTxn.endTxn(id, pid, false)))).isEqualTo(Errors.NONE);
            }
        }
        assertThat(reBegins).as("AddPartitionsToTxn right after EndTxn").contains(Errors.CONCURRENT_TRANSACTIONS)
                .allMatch(e -> e == Errors.CONCURRENT_TRANSACTIONS || e == Errors.NONE);
        raw.addPartitionsUntilDone(id, pid, topic, List.of(0)); // retried as a client does, the next one opens
        assertThat(RawTxn.endTxnError(raw.send(RawTxn.endTxn(id, pid, false)))).isEqualTo(Errors.NONE);

        List<TopicPartition> tps = all.stream().map(p -> new TopicPartition(topic, p)).toList();
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> {
            try (Admin admin = broker.admin()) {
                return admin.describeTransactions(List.of(id)).description(id).get(10, TimeUnit.SECONDS).state()
                        == TransactionState.COMPLETE_ABORT;
            }
        });
        List<ConsumerRecord<String, String>> committed = Txn.readAll(broker, READ_COMMITTED, tps, Duration.ofSeconds(30));
        assertThat(committed).hasSize(partitions * rounds);
    }

    @Test
    void sendOffsetsToTransactionCommitsTheGroupOffsetsWithTheOutput() throws Exception {
        String in = "offsets-in";
        String out = "offsets-out";
        String group = "offsets-group";
        TopicPartition inTp = new TopicPartition(in, 0);
        broker.createTopic(in, 1);
        broker.createTopic(out, 1);
        try (KafkaProducer<String, String> plain = broker.producer()) {
            for (int i = 0; i < 15; i++) {
                plain.send(new ProducerRecord<>(in, 0, "k" + i, "v" + i));
            }
            plain.flush();
        }
        Map<String, Object> rc = Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, READ_COMMITTED,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10);
        try (KafkaConsumer<String, String> member = broker.groupConsumer(group, rc);
             KafkaConsumer<String, String> stableReader = broker.consumer(Map.of(ConsumerConfig.GROUP_ID_CONFIG, group,
                     ConsumerConfig.ISOLATION_LEVEL_CONFIG, READ_COMMITTED));
             KafkaProducer<String, String> producer = Txn.producer(broker, "offsets-tx")) {
            producer.initTransactions();
            member.subscribe(List.of(in));
            List<ConsumerRecord<String, String>> batch = pollAtLeast(member, 10).subList(0, 10);
            member.seek(inTp, 10); // the transaction covers exactly the first 10
            assertThat(batch).extracting(ConsumerRecord::offset).containsExactlyElementsOf(
                    java.util.stream.LongStream.range(0, 10).boxed().toList());

            producer.beginTransaction();
            for (ConsumerRecord<String, String> r : batch) {
                producer.send(new ProducerRecord<>(out, 0, r.key(), r.value().toUpperCase()));
            }
            producer.sendOffsetsToTransaction(Map.of(inTp, new OffsetAndMetadata(10, "after-10")), member.groupMetadata());
            producer.flush();
            // pending: an OffsetFetch with require_stable (the consumer's) cannot determine it (UNSTABLE_OFFSET_COMMIT,
            // retried until the timeout); one without (Admin's default) sees no commit yet
            assertThatThrownBy(() -> stableReader.committed(Set.of(inTp), Duration.ofSeconds(2)))
                    .isInstanceOf(TimeoutException.class);
            assertThat(committedWithoutRequireStable(group, inTp)).isNull();
            producer.commitTransaction();

            Awaitility.await("the offsets are committed with the transaction").atMost(Duration.ofSeconds(20))
                    .ignoreExceptionsInstanceOf(TimeoutException.class)
                    .until(() -> stableReader.committed(Set.of(inTp), Duration.ofSeconds(2)).get(inTp),
                            o -> o != null && o.offset() == 10 && o.metadata().equals("after-10"));
            assertThat(values(Txn.readAll(broker, READ_COMMITTED, List.of(new TopicPartition(out, 0)),
                    Duration.ofSeconds(20)))).containsExactlyElementsOf(
                    IntStream.range(0, 10).mapToObj(i -> "V" + i).toList());

            // the next batch is aborted: its offsets are dropped with it
            List<ConsumerRecord<String, String>> next = pollAtLeast(member, 5);
            assertThat(next).extracting(ConsumerRecord::offset).containsExactly(10L, 11L, 12L, 13L, 14L);
            producer.beginTransaction();
            for (ConsumerRecord<String, String> r : next) {
                producer.send(new ProducerRecord<>(out, 0, r.key(), r.value().toUpperCase()));
            }
            producer.sendOffsetsToTransaction(Map.of(inTp, new OffsetAndMetadata(15, "after-15")), member.groupMetadata());
            producer.flush(); // written, then aborted (the client drops batches not yet sent when it aborts)
            producer.abortTransaction();
            Awaitility.await("the aborted offsets are dropped").atMost(Duration.ofSeconds(20))
                    .ignoreExceptionsInstanceOf(TimeoutException.class)
                    .until(() -> stableReader.committed(Set.of(inTp), Duration.ofSeconds(2)).get(inTp),
                            o -> o != null && o.offset() == 10);
            assertThat(committedWithoutRequireStable(group, inTp).offset()).isEqualTo(10);
        }
        assertThat(Txn.readAll(broker, READ_COMMITTED, List.of(new TopicPartition(out, 0)), Duration.ofSeconds(20)))
                .hasSize(10);
        assertThat(Txn.readAll(broker, READ_UNCOMMITTED, List.of(new TopicPartition(out, 0)), Duration.ofSeconds(20)))
                .hasSize(15);
    }

    private static List<ConsumerRecord<String, String>> pollAtLeast(KafkaConsumer<String, String> consumer, int n) {
        List<ConsumerRecord<String, String>> got = new ArrayList<>();
        Awaitility.await("poll " + n + " records").atMost(Duration.ofSeconds(30)).until(() -> {
            consumer.poll(Duration.ofMillis(100)).forEach(got::add);
            return got.size() >= n;
        });
        return got;
    }

    private static OffsetAndMetadata committedWithoutRequireStable(String group, TopicPartition tp) throws Exception {
        try (Admin admin = broker.admin()) {
            return admin.listConsumerGroupOffsets(group, new ListConsumerGroupOffsetsOptions().requireStable(false))
                    .partitionsToOffsetAndMetadata().get(20, TimeUnit.SECONDS).get(tp);
        }
    }

    static long endOffset(TopicPartition tp, IsolationLevel isolation) throws Exception {
        try (Admin admin = broker.admin()) {
            return admin.listOffsets(Map.of(tp, OffsetSpec.latest()), new ListOffsetsOptions(isolation))
                    .partitionResult(tp).get(20, TimeUnit.SECONDS).offset();
        }
    }
}
