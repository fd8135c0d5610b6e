package io.kaas.broker.it.txn;

import static io.kaas.broker.it.txn.Txn.READ_COMMITTED;
import static io.kaas.broker.it.txn.Txn.READ_UNCOMMITTED;
import static io.kaas.broker.it.txn.Txn.values;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.it.KafkaClients;
import io.kaas.broker.it.TestBroker;
import io.kaas.broker.it.txn.RawTxn.ProducerIdAndEpoch;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.EndTxnRequestData;
import org.apache.kafka.common.message.EndTxnResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a client may not do with transactions, end to end over a socket: forge a marker as an ordinary Produce,
 * write a transactional batch to a partition its transaction does not hold or under another producer id, use a
 * transactional id over the protocol's string limit, end a transaction from a fenced epoch. Each gets Kafka's
 * answer (or a closed connection where Kafka cannot parse the request) and stores nothing, as a read_uncommitted
 * consumer and the end offsets show.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class TransactionBadInputIT {
    @TempDir
    static Path dir;
    static TxnBroker target;
    static KafkaClients broker;
    static RawTxn raw;

    @BeforeAll
    static void start() throws Exception {
        target = TxnBroker.start(TestBroker.builder(dir).config("auto.create.topics.enable", "false"));
        broker = target.clients;
        raw = new RawTxn(target.port());
    }

    @AfterAll
    static void stop() {
        if (target != null) {
            target.close();
        }
    }

    @Test
    void aMarkerSentAsProduceIsRefusedAndTheTransactionStaysOpen() throws Exception {
        String topic = "forge";
        TopicPartition tp = new TopicPartition(topic, 0);
        broker.createTopic(topic, 1);
        try (KafkaProducer<String, String> producer = Txn.producer(broker, "forge-tx")) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, 0, "k", "open")).get(20, TimeUnit.SECONDS);
            ProducerState state;
            try (Admin admin = broker.admin()) {
                state = admin.describeProducers(List.of(tp)).partitionResult(tp).get(20, TimeUnit.SECONDS)
                        .activeProducers().get(0);
            }
            MemoryRecords commit = MemoryRecords.withEndTransactionMarker(System.currentTimeMillis(), state.producerId(),
                    (short) state.producerEpoch(), new EndTransactionMarker(ControlRecordType.COMMIT, 0));
            for (short version : new short[] {9, 11, 12}) {
                assertThat(raw.produceError(RawTxn.produce("forge-tx", topic, 0, commit), version))
                        .as("a COMMIT marker from a client, Produce v%d", version).isEqualTo(Errors.INVALID_RECORD);
            }
            assertThat(endOffset(tp, IsolationLevel.READ_UNCOMMITTED)).as("nothing stored").isEqualTo(1);
            assertThat(endOffset(tp, IsolationLevel.READ_COMMITTED)).as("the transaction is still open").isEqualTo(0);
            assertThat(Txn.readAll(broker, READ_COMMITTED, List.of(tp), Duration.ofSeconds(10))).isEmpty();
            producer.abortTransaction();
        }
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> endOffset(tp, IsolationLevel.READ_COMMITTED) == 2);
        assertThat(Txn.readAll(broker, READ_COMMITTED, List.of(tp), Duration.ofSeconds(10))).isEmpty();
        assertThat(values(Txn.readAll(broker, READ_UNCOMMITTED, List.of(tp), Duration.ofSeconds(10))))
                .containsExactly("open");
    }

    /**
     * KIP-890 part 1: a transactional batch for a partition the transaction does not hold is refused before the
     * append (Produce up to v10: INVALID_TXN_STATE; v11: TRANSACTION_ABORTABLE; v12+ adds the partition), and one
     * under a producer id the transactional id does not have gets INVALID_PRODUCER_ID_MAPPING.
     */
    @Test
    void aTransactionalBatchOutsideItsTransactionIsRefusedBeforeTheAppend() throws Exception {
        String topic = "outside";
        String id = "outside-tx";
        broker.createTopic(topic, 3);
        ProducerIdAndEpoch pid = raw.initProducerId(id, 60_000);
        raw.addPartitionsUntilDone(id, pid, topic, List.of(0));

        assertThat(raw.produceError(RawTxn.produce(id, topic, 1, RawTxn.transactionalBatch(pid, 0, "not-added")), (short) 10))
                .isEqualTo(Errors.INVALID_TXN_STATE);
        assertThat(raw.produceError(RawTxn.produce(id, topic, 1, RawTxn.transactionalBatch(pid, 0, "not-added")), (short) 11))
                .isEqualTo(Errors.TRANSACTION_ABORTABLE);
        ProducerIdAndEpoch other = new ProducerIdAndEpoch(pid.producerId() + 1_000, pid.epoch());
        assertThat(raw.produceError(RawTxn.produce(id, topic, 0, RawTxn.transactionalBatch(other, 0, "other-id")), (short) 10))
                .isEqualTo(Errors.INVALID_PRODUCER_ID_MAPPING);
        assertThat(raw.produceError(RawTxn.produce("never-initialised-tx", topic, 0,
                RawTxn.transactionalBatch(pid, 0, "unknown-id")), (short) 10)).isEqualTo(Errors.INVALID_PRODUCER_ID_MAPPING);
        assertThat(endOffsets(topic, 3, IsolationLevel.READ_UNCOMMITTED)).as("nothing stored").containsOnly(0L);

        assertThat(raw.produceError(RawTxn.produce(id, topic, 0, RawTxn.transactionalBatch(pid, 0, "added")), (short) 10))
                .isEqualTo(Errors.NONE);
        assertThat(RawTxn.endTxnError(raw.send(RawTxn.endTxn(id, pid, true)))).isEqualTo(Errors.NONE);
        TopicPartition p0 = new TopicPartition(topic, 0);
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> endOffset(p0, IsolationLevel.READ_COMMITTED) == 2);
        assertThat(values(Txn.readAll(broker, READ_UNCOMMITTED, topicPartitions(topic, 3), Duration.ofSeconds(10))))
                .containsExactly("added");
    }

    /** Transactions V2: Produce v12 adds its partition itself, EndTxn v5 bumps the epoch and answers the next one. */
    @Test
    void produceV12AddsThePartitionAndEndTxnV5BumpsTheEpoch() throws Exception {
        String topic = "implicit";
        String id = "implicit-tx";
        broker.createTopic(topic, 1);
        TopicPartition tp = new TopicPartition(topic, 0);
        ProducerIdAndEpoch pid = raw.initProducerId(id, 60_000);
        assertThat(raw.produceError(RawTxn.produce(id, topic, 0, RawTxn.transactionalBatch(pid, 0, "implicit")), (short) 12))
                .isEqualTo(Errors.NONE);
        assertThat(endOffset(tp, IsolationLevel.READ_COMMITTED)).as("open").isEqualTo(0);
        EndTxnResponseData end = (EndTxnResponseData) raw.send(ApiKeys.END_TXN, (short) 5, new EndTxnRequestData()
                .setTransactionalId(id).setProducerId(pid.producerId()).setProducerEpoch(pid.epoch()).setCommitted(true)).data();
        assertThat(Errors.forCode(end.errorCode())).isEqualTo(Errors.NONE);
        assertThat(end.producerId()).isEqualTo(pid.producerId());
        assertThat(end.producerEpoch()).isEqualTo((short) (pid.epoch() + 1));
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> endOffset(tp, IsolationLevel.READ_COMMITTED) == 2);
        assertThat(values(Txn.readAll(broker, READ_COMMITTED, List.of(tp), Duration.ofSeconds(10)))).containsExactly("implicit");
        // the old epoch is fenced now
        assertThat(raw.produceError(RawTxn.produce(id, topic, 0, RawTxn.transactionalBatch(pid, 1, "old-epoch")), (short) 12))
                .isEqualTo(Errors.INVALID_PRODUCER_EPOCH);
        ProducerIdAndEpoch next = new ProducerIdAndEpoch(end.producerId(), end.producerEpoch());
        assertThat(raw.produceError(RawTxn.produce(id, topic, 0, RawTxn.transactionalBatch(next, 0, "new-epoch")), (short) 12))
                .as("the bumped epoch starts again at sequence 0").isEqualTo(Errors.NONE);
        assertThat(endOffset(tp, IsolationLevel.READ_UNCOMMITTED)).isEqualTo(3);
    }

    /**
     * Transactions V2: EndTxn (v5) bumps the epoch on every end, an empty transaction included, and answers the
     * epoch to go on with; an end sent while the previous one is still completing gets CONCURRENT_TRANSACTIONS
     * (retried), never PRODUCER_FENCED, which would be fatal to the producer.
     */
    @Test
    void endTxnV5RightAfterTheLastEndIsConcurrentNeverFenced() throws Exception {
        String id = "v2-ends-tx";
        ProducerIdAndEpoch pid = raw.initProducerId(id, 60_000);
        short epoch = pid.epoch();
        int ends = 0;
        Map<Errors, Integer> answers = new java.util.TreeMap<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
        while (ends < 300 && System.nanoTime() < deadline) {
            EndTxnResponseData end = (EndTxnResponseData) raw.send(ApiKeys.END_TXN, (short) 5, new EndTxnRequestData()
                    .setTransactionalId(id).setProducerId(pid.producerId()).setProducerEpoch(epoch).setCommitted(false))
                    .data();
            Errors error = Errors.forCode(end.errorCode());
            answers.merge(error, 1, Integer::sum);
            assertThat(error).as("EndTxn v5 at the epoch the last end answered (%d), after %d ends: %s", epoch, ends,
                    answers).isIn(Errors.NONE, Errors.CONCURRENT_TRANSACTIONS);
            if (error == Errors.NONE) {
                assertThat(end.producerId()).isEqualTo(pid.producerId());
                assertThat(end.producerEpoch()).isEqualTo((short) (epoch + 1));
                epoch = end.producerEpoch();
                ends++;
            }
        }
        assertThat(ends).as("ends in 40 s: %s", answers).isEqualTo(300);
    }

    @Test
    void aTransactionalIdOverTheStringLimitClosesTheConnectionAndStoresNothing() throws Exception {
        String atLimit = "L".repeat(Short.MAX_VALUE);
        ProducerIdAndEpoch ok = raw.initProducerId(atLimit, 60_000);
        assertThat(ok.producerId()).as("a transactional id of 32767 bytes is valid").isNotNegative();

        String over = "O".repeat(Short.MAX_VALUE + 1);
        assertThat(raw.sendBytes(initProducerIdV4(over))).as("Kafka cannot parse it and closes the connection").isNull();
        try (Admin admin = broker.admin()) {
            Collection<TransactionListing> listed = admin.listTransactions().all().get(20, TimeUnit.SECONDS);
            assertThat(listed).extracting(TransactionListing::transactionalId).contains(atLimit)
                    .noneMatch(t -> t.length() > Short.MAX_VALUE);
        }
        assertThat(raw.initProducerId("after-the-long-one", 60_000).producerId()).as("the broker still serves")
                .isNotNegative();
    }

    @Test
    void endTxnFromAFencedEpochIsRefusedAndWritesNoMarker() throws Exception {
        String topic = "fenced";
        String id = "fenced-tx";
        TopicPartition tp = new TopicPartition(topic, 0);
        broker.createTopic(topic, 1);
        ProducerIdAndEpoch zombie = raw.initProducerId(id, 60_000);
        raw.addPartitionsUntilDone(id, zombie, topic, List.of(0));
        assertThat(raw.produceError(RawTxn.produce(id, topic, 0, RawTxn.transactionalBatch(zombie, 0, "zombie")), (short) 10))
                .isEqualTo(Errors.NONE);
        ProducerIdAndEpoch current = raw.initProducerId(id, 60_000); // fences the zombie, aborts its transaction
        assertThat(current.producerId()).isEqualTo(zombie.producerId());
        assertThat(current.epoch()).isGreaterThan(zombie.epoch());
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> endOffset(tp, IsolationLevel.READ_COMMITTED) == 2);

        assertThat(RawTxn.endTxnError(raw.send(RawTxn.endTxn(id, zombie, true)))).isEqualTo(Errors.PRODUCER_FENCED);
        EndTxnResponseData v1 = (EndTxnResponseData) raw.send(ApiKeys.END_TXN, (short) 1, new EndTxnRequestData()
                .setTransactionalId(id).setProducerId(zombie.producerId()).setProducerEpoch(zombie.epoch())
                .setCommitted(true)).data();
        assertThat(Errors.forCode(v1.errorCode())).as("before v2 a fenced producer is told INVALID_PRODUCER_EPOCH")
                .isEqualTo(Errors.INVALID_PRODUCER_EPOCH);
        assertThat(raw.produceError(RawTxn.produce(id, topic, 0, RawTxn.transactionalBatch(zombie, 1, "zombie-2")), (short) 10))
                .isEqualTo(Errors.INVALID_PRODUCER_EPOCH);

        assertThat(endOffset(tp, IsolationLevel.READ_UNCOMMITTED)).as("the record and the ABORT marker only").isEqualTo(2);
        assertThat(Txn.readAll(broker, READ_COMMITTED, List.of(tp), Duration.ofSeconds(10))).isEmpty();
        assertThat(values(Txn.readAll(broker, READ_UNCOMMITTED, List.of(tp), Duration.ofSeconds(10))))
                .containsExactly("zombie");
    }

    /** InitProducerId v4 (flexible) encoded by hand, as kafka-clients refuses to encode a string over 32767 bytes. */
    private static byte[] initProducerIdV4(String transactionalId) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeShort(ApiKeys.INIT_PRODUCER_ID.id);
        out.writeShort(4);
        out.writeInt(4242);
        byte[] client = "raw-txn-test".getBytes(StandardCharsets.UTF_8);
        out.writeShort(client.length);
        out.write(client);
        out.write(0); // header tagged fields
        byte[] id = transactionalId.getBytes(StandardCharsets.UTF_8);
        writeUnsignedVarint(out, id.length + 1);
        out.write(id);
        out.writeInt(60_000);
        out.writeLong(-1);
        out.writeShort(-1);
        out.write(0); // body tagged fields
        return bytes.toByteArray();
    }

    private static void writeUnsignedVarint(DataOutputStream out, int value) throws IOException {
        while ((value & ~0x7f) != 0) {
            out.write((value & 0x7f) | 0x80);
            value >>>= 7;
        }
        out.write(value);
    }

    private static List<TopicPartition> topicPartitions(String topic, int partitions) {
        return java.util.stream.IntStream.range(0, partitions).mapToObj(p -> new TopicPartition(topic, p)).toList();
    }

    private static List<Long> endOffsets(String topic, int partitions, IsolationLevel isolation) throws Exception {
        List<Long> out = new java.util.ArrayList<>();
        for (TopicPartition tp : topicPartitions(topic, partitions)) {
            out.add(endOffset(tp, isolation));
        }
        return out;
    }

    private static long endOffset(TopicPartition tp, IsolationLevel isolation) throws Exception {
        try (Admin admin = broker.admin()) {
            return admin.listOffsets(Map.of(tp, OffsetSpec.latest()), new ListOffsetsOptions(isolation))
                    .partitionResult(tp).get(20, TimeUnit.SECONDS).offset();
        }
    }
}
