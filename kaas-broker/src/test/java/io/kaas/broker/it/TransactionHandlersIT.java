package io.kaas.broker.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.FeatureMetadata;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.message.AddOffsetsToTxnRequestData;
import org.apache.kafka.common.message.AddOffsetsToTxnResponseData;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTopic;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTopicCollection;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTransaction;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTransactionCollection;
import org.apache.kafka.common.message.AddPartitionsToTxnResponseData;
import org.apache.kafka.common.message.AddPartitionsToTxnResponseData.AddPartitionsToTxnTopicResult;
import org.apache.kafka.common.message.DescribeProducersRequestData;
import org.apache.kafka.common.message.DescribeProducersResponseData;
import org.apache.kafka.common.message.DescribeTransactionsRequestData;
import org.apache.kafka.common.message.DescribeTransactionsResponseData;
import org.apache.kafka.common.message.EndTxnRequestData;
import org.apache.kafka.common.message.EndTxnResponseData;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.InitProducerIdResponseData;
import org.apache.kafka.common.message.ListTransactionsRequestData;
import org.apache.kafka.common.message.ListTransactionsResponseData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.message.TxnOffsetCommitRequestData;
import org.apache.kafka.common.message.TxnOffsetCommitResponseData;
import org.apache.kafka.common.message.WriteTxnMarkersRequestData;
import org.apache.kafka.common.message.WriteTxnMarkersResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.RequestUtils;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The transaction APIs with raw requests (kafka-clients' own serialization over a plain socket) on a real broker:
 * every API with the bad input a client or a buggy tool can send, answered with Kafka's error codes, and nothing
 * stored where Kafka stores nothing.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TransactionHandlersIT {
    private static final String TOPIC = "txn-raw";
    private static final TopicPartition TP = new TopicPartition(TOPIC, 0);

    @TempDir
    static Path dir;
    static TestBroker broker;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.builder(dir).config("auto.create.topics.enable", "false")
                .config("transaction.state.log.num.partitions", "3").config("transaction.max.timeout.ms", "60000").start();
        broker.createTopic(TOPIC, 2);
        findTransactionCoordinator(broker.port());
    }

    /**
     * FindCoordinator for a transactional id, as a client sends it first: creates {@code __transaction_state}, whose
     * partitions the broker then coordinates (before, a transactional id answers NOT_COORDINATOR, as Kafka's).
     */
    static void findTransactionCoordinator(int port) throws Exception {
        FindCoordinatorResponseData c = send(port, ApiKeys.FIND_COORDINATOR, 4, new FindCoordinatorRequestData()
                .setKeyType((byte) 1).setCoordinatorKeys(List.of("any-id")));
        assertThat(Errors.forCode(c.coordinators().get(0).errorCode())).isEqualTo(Errors.NONE);
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    /** Sends one request at {@code version} to the test's broker and returns its parsed response body. */
    static <T extends ApiMessage> T send(ApiKeys api, int version, ApiMessage body) throws Exception {
        return send(broker.port(), api, version, body);
    }

    @SuppressWarnings("unchecked")
    static <T extends ApiMessage> T send(int port, ApiKeys api, int version, ApiMessage body) throws Exception {
        RequestHeader header = new RequestHeader(api, (short) version, "txn-raw-test", 11);
        ByteBuffer bytes = RequestUtils.serialize(header.data(), header.headerVersion(), body, (short) version);
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(15_000);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(bytes.remaining());
            out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] response = new byte[in.readInt()];
            in.readFully(response);
            return (T) AbstractResponse.parseResponse(ByteBuffer.wrap(response), header).data();
        }
    }

    private static InitProducerIdResponseData init(String id, int timeoutMs) throws Exception {
        return send(ApiKeys.INIT_PRODUCER_ID, 4, new InitProducerIdRequestData().setTransactionalId(id)
                .setTransactionTimeoutMs(timeoutMs).setProducerId(-1).setProducerEpoch((short) -1));
    }

    private static ProduceRequestData produce(String transactionalId, int partition, MemoryRecords records) {
        ProduceRequestData.TopicProduceDataCollection topics = new ProduceRequestData.TopicProduceDataCollection();
        topics.add(new ProduceRequestData.TopicProduceData().setName(TOPIC)
                .setPartitionData(List.of(new ProduceRequestData.PartitionProduceData().setIndex(partition)
                        .setRecords(records))));
        return new ProduceRequestData().setAcks((short) -1).setTimeoutMs(10_000).setTransactionalId(transactionalId)
                .setTopicData(topics);
    }

    private static MemoryRecords transactional(long producerId, short epoch, int sequence, String value) {
        return MemoryRecords.withTransactionalRecords(Compression.NONE, producerId, epoch, sequence,
                new SimpleRecord(System.currentTimeMillis(), "k".getBytes(StandardCharsets.UTF_8),
                        value.getBytes(StandardCharsets.UTF_8)));
    }

    private static short produced(ProduceRequestData request, int version) throws Exception {
        ProduceResponseData r = send(ApiKeys.PRODUCE, version, request);
        return r.responses().iterator().next().partitionResponses().get(0).errorCode();
    }

    private static AddPartitionsToTxnRequestData addV3(String id, long producerId, short epoch, String topic,
                                                       int... partitions) {
        AddPartitionsToTxnTopicCollection topics = new AddPartitionsToTxnTopicCollection();
        topics.add(new AddPartitionsToTxnTopic().setName(topic).setPartitions(java.util.Arrays.stream(partitions).boxed()
                .toList()));
        return new AddPartitionsToTxnRequestData().setV3AndBelowTransactionalId(id).setV3AndBelowProducerId(producerId)
                .setV3AndBelowProducerEpoch(epoch).setV3AndBelowTopics(topics);
    }

    private static Map<Integer, Short> errorsV3(AddPartitionsToTxnResponseData r, String topic) {
        AddPartitionsToTxnTopicResult t = r.resultsByTopicV3AndBelow().find(topic);
        Map<Integer, Short> out = new java.util.TreeMap<>();
        t.resultsByPartition().forEach(p -> out.put(p.partitionIndex(), p.partitionErrorCode()));
        return out;
    }

    private static EndTxnResponseData end(int version, String id, long producerId, short epoch, boolean commit)
            throws Exception {
        return send(ApiKeys.END_TXN, version, new EndTxnRequestData().setTransactionalId(id).setProducerId(producerId)
                .setProducerEpoch(epoch).setCommitted(commit));
    }

    private static long latest(Admin admin, TopicPartition tp, IsolationLevel isolation) throws Exception {
        return admin.listOffsets(Map.of(tp, OffsetSpec.latest()), new ListOffsetsOptions(isolation)).partitionResult(tp)
                .get(20, TimeUnit.SECONDS).offset();
    }

    @Test
    void adminDescribeFeaturesShowsTheFinalizedTransactionVersion() throws Exception {
        try (Admin admin = broker.admin()) {
            FeatureMetadata features = admin.describeFeatures().featureMetadata().get(20, TimeUnit.SECONDS);
            assertThat(features.finalizedFeatures().get("transaction.version").maxVersionLevel()).isEqualTo((short) 2);
            assertThat(features.finalizedFeatures().get("group.version").maxVersionLevel()).isEqualTo((short) 1);
            assertThat(features.supportedFeatures().get("transaction.version").maxVersion()).isEqualTo((short) 2);
            assertThat(features.finalizedFeaturesEpoch()).hasValueSatisfying(e -> assertThat(e).isPositive());
        }
    }

    @Test
    void initProducerIdRefusesEmptyIdsBadTimeoutsAndHalfGivenProducers() throws Exception {
        assertThat(Errors.forCode(init("", 10_000).errorCode())).isEqualTo(Errors.INVALID_REQUEST);
        assertThat(Errors.forCode(init("bad-timeout", 60_001).errorCode())).isEqualTo(Errors.INVALID_TRANSACTION_TIMEOUT);
        assertThat(Errors.forCode(init("bad-timeout", 0).errorCode())).isEqualTo(Errors.INVALID_TRANSACTION_TIMEOUT);
        InitProducerIdResponseData half = send(ApiKeys.INIT_PRODUCER_ID, 4, new InitProducerIdRequestData()
                .setTransactionalId("half").setTransactionTimeoutMs(10_000).setProducerId(7).setProducerEpoch((short) -1));
        assertThat(Errors.forCode(half.errorCode())).isEqualTo(Errors.INVALID_REQUEST);
        assertThat(half.producerId()).isEqualTo(-1);
    }

    @Test
    void aTransactionalIdAtTheProtocolLimitWorksAndOneOverItClosesTheConnection() throws Exception {
        String longest = "t".repeat(Short.MAX_VALUE);
        InitProducerIdResponseData ok = init(longest, 10_000);
        assertThat(Errors.forCode(ok.errorCode())).isEqualTo(Errors.NONE);
        assertThat(ok.producerId()).isNotNegative();

        // InitProducerId v4 (flexible) by hand: kafka-clients refuses to write a string over 32767 bytes.
        byte[] id = "t".repeat(Short.MAX_VALUE + 1).getBytes(StandardCharsets.UTF_8);
        ByteBuffer frame = ByteBuffer.allocate(64 + id.length);
        frame.putInt(0).putShort(ApiKeys.INIT_PRODUCER_ID.id).putShort((short) 4).putInt(5).putShort((short) -1)
                .put((byte) 0);
        putUnsignedVarint(frame, id.length + 1);
        frame.put(id).putInt(10_000).putLong(-1).putShort((short) -1).put((byte) 0);
        frame.putInt(0, frame.position() - 4);
        try (Socket socket = new Socket("127.0.0.1", broker.port())) {
            socket.setSoTimeout(15_000);
            socket.getOutputStream().write(frame.array(), 0, frame.position());
            socket.getOutputStream().flush();
            int read;
            try {
                read = socket.getInputStream().read();
            } catch (SocketException e) {
                read = -1;
            }
            assertThat(read).as("the broker closes the connection, as Kafka does for an unparsable request").isEqualTo(-1);
        } catch (EOFException e) {
            // closed, as expected
        }
    }

    private static void putUnsignedVarint(ByteBuffer b, int v) {
        while ((v & 0xffffff80) != 0) {
            b.put((byte) ((v & 0x7f) | 0x80));
            v >>>= 7;
        }
        b.put((byte) v);
    }

    @Test
    void aTransactionalProduceOfAPartitionNotInTheTransactionIsRefusedAndNotStored() throws Exception {
        InitProducerIdResponseData p = init("not-added", 30_000);
        assertThat(Errors.forCode(p.errorCode())).isEqualTo(Errors.NONE);
        try (Admin admin = broker.admin()) {
            TopicPartition tp1 = new TopicPartition(TOPIC, 1);
            long before = latest(admin, tp1, IsolationLevel.READ_UNCOMMITTED);
            // below transactions V2 the partition must have been added (KIP-890 part 1)
            short v10 = produced(produce("not-added", 1, transactional(p.producerId(), p.producerEpoch(), 0, "x")), 10);
            assertThat(Errors.forCode(v10)).isEqualTo(Errors.INVALID_TXN_STATE);
            short v11 = produced(produce("not-added", 1, transactional(p.producerId(), p.producerEpoch(), 0, "x")), 11);
            assertThat(Errors.forCode(v11)).as("clients from v11 abort on it").isEqualTo(Errors.TRANSACTION_ABORTABLE);
            assertThat(latest(admin, tp1, IsolationLevel.READ_UNCOMMITTED)).as("nothing stored").isEqualTo(before);
            assertThat(latest(admin, tp1, IsolationLevel.READ_COMMITTED)).as("no transaction left open").isEqualTo(before);

            // another producer id than the transactional id's: the coordinator says the mapping is wrong
            short wrongId = produced(produce("not-added", 1, transactional(p.producerId() + 1, (short) 0, 0, "x")), 11);
            assertThat(Errors.forCode(wrongId)).isEqualTo(Errors.INVALID_PRODUCER_ID_MAPPING);
            assertThat(latest(admin, tp1, IsolationLevel.READ_UNCOMMITTED)).isEqualTo(before);
        }
    }

    @Test
    void addPartitionsFailsTheWholeTransactionForAnUnknownPartitionAndVerifyOnlyAnswersPerPartition() throws Exception {
        InitProducerIdResponseData p = init("adds", 30_000);
        AddPartitionsToTxnResponseData unknown = send(ApiKeys.ADD_PARTITIONS_TO_TXN, 3,
                addV3("adds", p.producerId(), p.producerEpoch(), TOPIC, 0, 9));
        assertThat(errorsV3(unknown, TOPIC)).containsEntry(0, Errors.OPERATION_NOT_ATTEMPTED.code())
                .containsEntry(9, Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
        AddPartitionsToTxnResponseData missingTopic = send(ApiKeys.ADD_PARTITIONS_TO_TXN, 3,
                addV3("adds", p.producerId(), p.producerEpoch(), "no-such-topic", 0));
        assertThat(errorsV3(missingTopic, "no-such-topic")).containsEntry(0, Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
        AddPartitionsToTxnResponseData unknownId = send(ApiKeys.ADD_PARTITIONS_TO_TXN, 3,
                addV3("nobody-home", 4242, (short) 0, TOPIC, 0));
        assertThat(errorsV3(unknownId, TOPIC)).containsEntry(0, Errors.INVALID_PRODUCER_ID_MAPPING.code());
        AddPartitionsToTxnResponseData fenced = send(ApiKeys.ADD_PARTITIONS_TO_TXN, 1,
                addV3("adds", p.producerId(), (short) (p.producerEpoch() + 1), TOPIC, 0));
        assertThat(errorsV3(fenced, TOPIC)).as("PRODUCER_FENCED as v1 clients know it")
                .containsEntry(0, Errors.INVALID_PRODUCER_EPOCH.code());

        AddPartitionsToTxnTopicCollection topics = new AddPartitionsToTxnTopicCollection();
        topics.add(new AddPartitionsToTxnTopic().setName(TOPIC).setPartitions(List.of(0)));
        AddPartitionsToTxnTransactionCollection txns = new AddPartitionsToTxnTransactionCollection();
        txns.add(new AddPartitionsToTxnTransaction().setTransactionalId("adds").setProducerId(p.producerId())
                .setProducerEpoch(p.producerEpoch()).setVerifyOnly(true).setTopics(topics));
        AddPartitionsToTxnResponseData verify = send(ApiKeys.ADD_PARTITIONS_TO_TXN, 4,
                new AddPartitionsToTxnRequestData().setTransactions(txns));
        assertThat(verify.errorCode()).isZero();
        assertThat(verify.resultsByTransaction().find("adds").topicResults().find(TOPIC).resultsByPartition()
                .find(0).partitionErrorCode()).as("Kafka's coordinator's answer").isEqualTo(Errors.TRANSACTION_ABORTABLE.code());
    }

    @Test
    void aTransactionCommittedByHandKeepsTheLsoUntilItsMarkerAndEndTxnRefusesStrangers() throws Exception {
        InitProducerIdResponseData p = init("by-hand", 30_000);
        long pid = p.producerId();
        short epoch = p.producerEpoch();
        assertThat(Errors.forCode(this.<AddPartitionsToTxnResponseData>sendAdd(pid, epoch).resultsByTopicV3AndBelow()
                .find(TOPIC).resultsByPartition().find(0).partitionErrorCode())).isEqualTo(Errors.NONE);
        try (Admin admin = broker.admin()) {
            long start = latest(admin, TP, IsolationLevel.READ_UNCOMMITTED);
            assertThat(Errors.forCode(produced(produce("by-hand", 0, transactional(pid, epoch, 0, "one")), 11)))
                    .isEqualTo(Errors.NONE);
            assertThat(latest(admin, TP, IsolationLevel.READ_COMMITTED)).as("LSO at the open transaction").isEqualTo(start);

            DescribeProducersResponseData producers = send(ApiKeys.DESCRIBE_PRODUCERS, 0, new DescribeProducersRequestData()
                    .setTopics(new DescribeProducersRequestData.TopicRequestCollection(List.of(
                            new DescribeProducersRequestData.TopicRequest().setName(TOPIC)
                                    .setPartitionIndexes(List.of(0, 5))).iterator())));
            var partitions = producers.topics().get(0).partitions();
            assertThat(partitions.get(0).errorCode()).isZero();
            assertThat(partitions.get(0).activeProducers()).anySatisfy(s -> {
                assertThat(s.producerId()).isEqualTo(pid);
                assertThat(s.currentTxnStartOffset()).isEqualTo(start);
            });
            assertThat(Errors.forCode(partitions.get(1).errorCode())).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION);

            assertThat(Errors.forCode(end(3, "by-hand", pid, (short) (epoch + 1), true).errorCode()))
                    .as("an epoch the coordinator never gave").isEqualTo(Errors.PRODUCER_FENCED);
            assertThat(Errors.forCode(end(3, "by-hand", pid + 1, epoch, true).errorCode()))
                    .isEqualTo(Errors.INVALID_PRODUCER_ID_MAPPING);
            assertThat(Errors.forCode(end(3, "nobody-home", pid, epoch, true).errorCode()))
                    .isEqualTo(Errors.INVALID_PRODUCER_ID_MAPPING);
            assertThat(Errors.forCode(end(3, "", pid, epoch, true).errorCode())).isEqualTo(Errors.INVALID_REQUEST);
            assertThat(latest(admin, TP, IsolationLevel.READ_COMMITTED)).as("still open").isEqualTo(start);

            assertThat(Errors.forCode(end(3, "by-hand", pid, epoch, true).errorCode())).isEqualTo(Errors.NONE);
            Awaitility.await("the COMMIT marker").atMost(Duration.ofSeconds(20))
                    .until(() -> latest(admin, TP, IsolationLevel.READ_COMMITTED) == start + 2);
            assertThat(latest(admin, TP, IsolationLevel.READ_UNCOMMITTED)).isEqualTo(start + 2);

            Awaitility.await("CompleteCommit").atMost(Duration.ofSeconds(20)).until(() -> {
                DescribeTransactionsResponseData d = send(ApiKeys.DESCRIBE_TRANSACTIONS, 0,
                        new DescribeTransactionsRequestData().setTransactionalIds(List.of("by-hand")));
                return d.transactionStates().get(0).transactionState().equals("CompleteCommit");
            });
        }
    }

    private AddPartitionsToTxnResponseData sendAdd(long pid, short epoch) throws Exception {
        return send(ApiKeys.ADD_PARTITIONS_TO_TXN, 3, addV3("by-hand", pid, epoch, TOPIC, 0));
    }

    @Test
    void describeAndListTransactionsAnswerUnknownIdsStatesAndPatternsAsKafka() throws Exception {
        assertThat(Errors.forCode(init("listed", 30_000).errorCode())).isEqualTo(Errors.NONE);
        DescribeTransactionsResponseData d = send(ApiKeys.DESCRIBE_TRANSACTIONS, 0,
                new DescribeTransactionsRequestData().setTransactionalIds(List.of("never-seen", "", "listed")));
        assertThat(d.transactionStates()).extracting(s -> s.transactionalId() + " " + Errors.forCode(s.errorCode()))
                .containsExactly("never-seen TRANSACTIONAL_ID_NOT_FOUND", " TRANSACTIONAL_ID_NOT_FOUND", "listed NONE");
        assertThat(d.transactionStates().get(2).transactionState()).isEqualTo("Empty");

        ListTransactionsResponseData unknownState = send(ApiKeys.LIST_TRANSACTIONS, 1,
                new ListTransactionsRequestData().setStateFilters(List.of("Nope")).setDurationFilter(-1));
        assertThat(unknownState.unknownStateFilters()).containsExactly("Nope");
        assertThat(unknownState.transactionStates()).isEmpty();

        ListTransactionsResponseData byPattern = send(ApiKeys.LIST_TRANSACTIONS, 2,
                new ListTransactionsRequestData().setDurationFilter(-1).setTransactionalIdPattern("list.*"));
        assertThat(byPattern.transactionStates()).extracting(ListTransactionsResponseData.TransactionState::transactionalId)
                .containsExactly("listed");
        ListTransactionsResponseData badPattern = send(ApiKeys.LIST_TRANSACTIONS, 2,
                new ListTransactionsRequestData().setDurationFilter(-1).setTransactionalIdPattern("(unclosed"));
        assertThat(Errors.forCode(badPattern.errorCode())).isEqualTo(Errors.INVALID_REGULAR_EXPRESSION);
    }

    @Test
    void offsetsInATransactionAnswerUnknownTopicsAndIdsAsKafka() throws Exception {
        AddOffsetsToTxnResponseData unknownId = send(ApiKeys.ADD_OFFSETS_TO_TXN, 3, new AddOffsetsToTxnRequestData()
                .setTransactionalId("nobody-home").setProducerId(4242).setProducerEpoch((short) 0).setGroupId("g"));
        assertThat(Errors.forCode(unknownId.errorCode())).isEqualTo(Errors.INVALID_PRODUCER_ID_MAPPING);
        AddOffsetsToTxnResponseData emptyId = send(ApiKeys.ADD_OFFSETS_TO_TXN, 3, new AddOffsetsToTxnRequestData()
                .setTransactionalId("").setProducerId(4242).setProducerEpoch((short) 0).setGroupId("g"));
        assertThat(Errors.forCode(emptyId.errorCode())).isEqualTo(Errors.INVALID_REQUEST);

        InitProducerIdResponseData p = init("offsets", 30_000);
        TxnOffsetCommitRequestData commit = new TxnOffsetCommitRequestData().setTransactionalId("offsets")
                .setGroupId("g-offsets").setProducerId(p.producerId()).setProducerEpoch(p.producerEpoch())
                .setTopics(List.of(
                        new TxnOffsetCommitRequestData.TxnOffsetCommitRequestTopic().setName("no-such-topic")
                                .setPartitions(List.of(new TxnOffsetCommitRequestData.TxnOffsetCommitRequestPartition()
                                        .setPartitionIndex(0).setCommittedOffset(1))),
                        new TxnOffsetCommitRequestData.TxnOffsetCommitRequestTopic().setName(TOPIC)
                                .setPartitions(List.of(new TxnOffsetCommitRequestData.TxnOffsetCommitRequestPartition()
                                        .setPartitionIndex(9).setCommittedOffset(1)))));
        TxnOffsetCommitResponseData r = send(ApiKeys.TXN_OFFSET_COMMIT, 3, commit);
        assertThat(r.topics()).extracting(t -> t.name() + " " + Errors.forCode(t.partitions().get(0).errorCode()))
                .containsExactly("no-such-topic UNKNOWN_TOPIC_OR_PARTITION", TOPIC + " UNKNOWN_TOPIC_OR_PARTITION");
    }

    @Test
    void describeAndListShowOnlyWhatThePrincipalMayDescribe() throws Exception {
        TestBroker secured = TestBroker.builder(dir.resolve("acl-describe"))
                .config("transaction.state.log.num.partitions", "1")
                .acl("""
                        allow * ALL topic:*
                        allow * ALL transactional-id:*
                        deny * DESCRIBE transactional-id:hidden-*
                        deny * DESCRIBE topic:secret
                        """).start();
        try {
            secured.createTopic("secret", 1);
            secured.createTopic("visible", 1);
            int port = secured.port();
            findTransactionCoordinator(port);
            for (String id : List.of("shown-tx", "hidden-tx")) {
                InitProducerIdResponseData p = send(port, ApiKeys.INIT_PRODUCER_ID, 4, new InitProducerIdRequestData()
                        .setTransactionalId(id).setTransactionTimeoutMs(30_000).setProducerId(-1)
                        .setProducerEpoch((short) -1));
                assertThat(Errors.forCode(p.errorCode())).as(id).isEqualTo(Errors.NONE);
                AddPartitionsToTxnTopicCollection topics = new AddPartitionsToTxnTopicCollection();
                topics.add(new AddPartitionsToTxnTopic().setName("secret").setPartitions(List.of(0)));
                topics.add(new AddPartitionsToTxnTopic().setName("visible").setPartitions(List.of(0)));
                AddPartitionsToTxnResponseData added = send(port, ApiKeys.ADD_PARTITIONS_TO_TXN, 3,
                        new AddPartitionsToTxnRequestData().setV3AndBelowTransactionalId(id)
                                .setV3AndBelowProducerId(p.producerId()).setV3AndBelowProducerEpoch(p.producerEpoch())
                                .setV3AndBelowTopics(topics));
                assertThat(errorsV3(added, "secret")).as("WRITE is allowed").containsEntry(0, Errors.NONE.code());
            }
            DescribeTransactionsResponseData d = send(port, ApiKeys.DESCRIBE_TRANSACTIONS, 0,
                    new DescribeTransactionsRequestData().setTransactionalIds(List.of("shown-tx", "hidden-tx")));
            assertThat(Errors.forCode(d.transactionStates().get(0).errorCode())).isEqualTo(Errors.NONE);
            assertThat(d.transactionStates().get(0).transactionState()).isEqualTo("Ongoing");
            assertThat(d.transactionStates().get(0).topics()).as("only the topics it may DESCRIBE")
                    .extracting(DescribeTransactionsResponseData.TopicData::topic).containsExactly("visible");
            assertThat(Errors.forCode(d.transactionStates().get(1).errorCode()))
                    .isEqualTo(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
            ListTransactionsResponseData listed = send(port, ApiKeys.LIST_TRANSACTIONS, 1,
                    new ListTransactionsRequestData().setDurationFilter(-1));
            assertThat(listed.transactionStates()).extracting(ListTransactionsResponseData.TransactionState::transactionalId)
                    .containsExactly("shown-tx");
        } finally {
            secured.close();
        }
    }

    @Test
    void theTransactionApisCheckTheirAclsAsKafka() throws Exception {
        TestBroker secured = TestBroker.builder(dir.resolve("acl-write"))
                .config("transaction.state.log.num.partitions", "1")
                .acl("""
                        allow * ALL topic:*
                        deny * WRITE topic:nowrite
                        deny * READ topic:noread
                        allow * DESCRIBE transactional-id:*
                        allow * WRITE transactional-id:w-*
                        allow * READ group:g-ok
                        """).start();
        try {
            for (String t : List.of("ok", "nowrite", "noread")) {
                secured.createTopic(t, 1);
            }
            int port = secured.port();
            findTransactionCoordinator(port);
            // no WRITE on the transactional id
            ProduceRequestData.TopicProduceDataCollection data = new ProduceRequestData.TopicProduceDataCollection();
            data.add(new ProduceRequestData.TopicProduceData().setName("ok").setPartitionData(List.of(
                    new ProduceRequestData.PartitionProduceData().setIndex(0).setRecords(transactional(1, (short) 0, 0, "x")))));
            ProduceResponseData produced = send(port, ApiKeys.PRODUCE, 11, new ProduceRequestData().setAcks((short) -1)
                    .setTimeoutMs(10_000).setTransactionalId("r-1").setTopicData(data));
            assertThat(Errors.forCode(produced.responses().iterator().next().partitionResponses().get(0).errorCode()))
                    .isEqualTo(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
            EndTxnResponseData ended = send(port, ApiKeys.END_TXN, 3, new EndTxnRequestData().setTransactionalId("r-1")
                    .setProducerId(1).setProducerEpoch((short) 0).setCommitted(true));
            assertThat(Errors.forCode(ended.errorCode())).isEqualTo(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
            AddOffsetsToTxnResponseData offsetsDenied = send(port, ApiKeys.ADD_OFFSETS_TO_TXN, 3,
                    new AddOffsetsToTxnRequestData().setTransactionalId("r-1").setProducerId(1)
                            .setProducerEpoch((short) 0).setGroupId("g-ok"));
            assertThat(Errors.forCode(offsetsDenied.errorCode())).isEqualTo(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
            AddPartitionsToTxnResponseData addDenied = send(port, ApiKeys.ADD_PARTITIONS_TO_TXN, 3,
                    addV3("r-1", 1, (short) 0, "ok", 0));
            assertThat(errorsV3(addDenied, "ok")).containsEntry(0, Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code());

            // WRITE on the id, not READ on the group or topic, not WRITE on a topic
            InitProducerIdResponseData p = send(port, ApiKeys.INIT_PRODUCER_ID, 4, new InitProducerIdRequestData()
                    .setTransactionalId("w-1").setTransactionTimeoutMs(30_000).setProducerId(-1)
                    .setProducerEpoch((short) -1));
            assertThat(Errors.forCode(p.errorCode())).isEqualTo(Errors.NONE);
            AddPartitionsToTxnTopicCollection topics = new AddPartitionsToTxnTopicCollection();
            topics.add(new AddPartitionsToTxnTopic().setName("ok").setPartitions(List.of(0)));
            topics.add(new AddPartitionsToTxnTopic().setName("nowrite").setPartitions(List.of(0)));
            AddPartitionsToTxnResponseData add = send(port, ApiKeys.ADD_PARTITIONS_TO_TXN, 3,
                    new AddPartitionsToTxnRequestData().setV3AndBelowTransactionalId("w-1")
                            .setV3AndBelowProducerId(p.producerId()).setV3AndBelowProducerEpoch(p.producerEpoch())
                            .setV3AndBelowTopics(topics));
            assertThat(errorsV3(add, "nowrite")).containsEntry(0, Errors.TOPIC_AUTHORIZATION_FAILED.code());
            assertThat(errorsV3(add, "ok")).containsEntry(0, Errors.OPERATION_NOT_ATTEMPTED.code());
            AddOffsetsToTxnResponseData groupDenied = send(port, ApiKeys.ADD_OFFSETS_TO_TXN, 3,
                    new AddOffsetsToTxnRequestData().setTransactionalId("w-1").setProducerId(p.producerId())
                            .setProducerEpoch(p.producerEpoch()).setGroupId("g-denied"));
            assertThat(Errors.forCode(groupDenied.errorCode())).isEqualTo(Errors.GROUP_AUTHORIZATION_FAILED);
            TxnOffsetCommitRequestData commit = new TxnOffsetCommitRequestData().setTransactionalId("w-1")
                    .setProducerId(p.producerId()).setProducerEpoch(p.producerEpoch())
                    .setTopics(List.of(new TxnOffsetCommitRequestData.TxnOffsetCommitRequestTopic().setName("noread")
                            .setPartitions(List.of(new TxnOffsetCommitRequestData.TxnOffsetCommitRequestPartition()
                                    .setPartitionIndex(0).setCommittedOffset(1)))));
            TxnOffsetCommitResponseData noGroup = send(port, ApiKeys.TXN_OFFSET_COMMIT, 3, commit.duplicate()
                    .setGroupId("g-denied"));
            assertThat(Errors.forCode(noGroup.topics().get(0).partitions().get(0).errorCode()))
                    .isEqualTo(Errors.GROUP_AUTHORIZATION_FAILED);
            TxnOffsetCommitResponseData noTopic = send(port, ApiKeys.TXN_OFFSET_COMMIT, 3, commit.duplicate()
                    .setGroupId("g-ok"));
            assertThat(Errors.forCode(noTopic.topics().get(0).partitions().get(0).errorCode()))
                    .isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED);
        } finally {
            secured.close();
        }
    }

    @Test
    void describeProducersAnswersInvalidAndUnknownTopics() throws Exception {
        DescribeProducersResponseData r = send(ApiKeys.DESCRIBE_PRODUCERS, 0, new DescribeProducersRequestData()
                .setTopics(new DescribeProducersRequestData.TopicRequestCollection(List.of(
                        new DescribeProducersRequestData.TopicRequest().setName("no-such-topic")
                                .setPartitionIndexes(List.of(0)),
                        new DescribeProducersRequestData.TopicRequest().setName("bad name!")
                                .setPartitionIndexes(List.of(0))).iterator())));
        assertThat(Errors.forCode(r.topics().get(0).partitions().get(0).errorCode()))
                .isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION);
        assertThat(Errors.forCode(r.topics().get(1).partitions().get(0).errorCode())).isEqualTo(Errors.INVALID_TOPIC_EXCEPTION);
        assertThat(r.topics().get(1).partitions().get(0).errorMessage()).contains("bad name!");
    }

    @Test
    void theStateTopicIsInternalAndNotWritableByClients() throws Exception {
        FindCoordinatorResponseData c = send(ApiKeys.FIND_COORDINATOR, 4, new FindCoordinatorRequestData()
                .setKeyType((byte) 1).setCoordinatorKeys(List.of("any-id")));
        assertThat(Errors.forCode(c.coordinators().get(0).errorCode())).isEqualTo(Errors.NONE);
        assertThat(c.coordinators().get(0).port()).isEqualTo(broker.port());
        try (Admin admin = broker.admin()) {
            assertThat(admin.describeTopics(List.of("__transaction_state")).allTopicNames().get(20, TimeUnit.SECONDS)
                    .get("__transaction_state").partitions()).as("transaction.state.log.num.partitions").hasSize(3);
            assertThat(admin.describeTopics(List.of("__transaction_state")).allTopicNames().get(20, TimeUnit.SECONDS)
                    .get("__transaction_state").isInternal()).isTrue();
            ConfigResource state = new ConfigResource(ConfigResource.Type.TOPIC, "__transaction_state");
            Config configs = admin.describeConfigs(List.of(state)).all().get(20, TimeUnit.SECONDS).get(state);
            assertThat(configs.get("cleanup.policy").value()).isEqualTo("delete");
            assertThat(configs.get("retention.ms").value()).isEqualTo("-1");
            assertThat(configs.get("retention.bytes").value()).isEqualTo("-1");
            assertThat(configs.get("segment.bytes").value()).as("transaction.state.log.segment.bytes").isEqualTo("104857600");
            ProduceRequestData.TopicProduceDataCollection topics = new ProduceRequestData.TopicProduceDataCollection();
            topics.add(new ProduceRequestData.TopicProduceData().setName("__transaction_state")
                    .setPartitionData(List.of(new ProduceRequestData.PartitionProduceData().setIndex(0)
                            .setRecords(MemoryRecords.withRecords(Compression.NONE,
                                    new SimpleRecord("k".getBytes(StandardCharsets.UTF_8), null))))));
            TopicPartition state0 = new TopicPartition("__transaction_state", 0);
            long before = latest(admin, state0, IsolationLevel.READ_UNCOMMITTED);
            short code = produced(new ProduceRequestData().setAcks((short) 1).setTimeoutMs(10_000).setTopicData(topics), 11);
            assertThat(Errors.forCode(code)).isEqualTo(Errors.INVALID_TOPIC_EXCEPTION);
            assertThat(latest(admin, state0, IsolationLevel.READ_UNCOMMITTED)).isEqualTo(before);
            var deleted = admin.deleteRecords(Map.of(state0, RecordsToDelete.beforeOffset(0))).lowWatermarks().get(state0);
            assertThat(deleted).failsWithin(Duration.ofSeconds(20)).withThrowableOfType(java.util.concurrent.ExecutionException.class)
                    .withCauseInstanceOf(InvalidTopicException.class);
        }
    }

    @Test
    void metadataAutoCreationMakesTheStateTopicWithItsOwnSettingsNotTheBrokerDefaults() throws Exception {
        try (TestBroker auto = TestBroker.builder(dir.resolve("auto")).config("auto.create.topics.enable", "true")
                .config("num.partitions", "2").config("transaction.state.log.num.partitions", "4").start();
             Admin admin = auto.admin()) {
            MetadataResponseData m = send(auto.port(), ApiKeys.METADATA, 12, new MetadataRequestData()
                    .setAllowAutoTopicCreation(true).setTopics(List.of(
                            new MetadataRequestData.MetadataRequestTopic().setName("__transaction_state"))));
            MetadataResponseData.MetadataResponseTopic t = m.topics().find("__transaction_state");
            assertThat(Errors.forCode(t.errorCode())).isEqualTo(Errors.NONE);
            assertThat(t.isInternal()).isTrue();
            assertThat(t.partitions()).as("transaction.state.log.num.partitions, not num.partitions").hasSize(4);
            ConfigResource state = new ConfigResource(ConfigResource.Type.TOPIC, "__transaction_state");
            assertThat(admin.describeConfigs(List.of(state)).all().get(20, TimeUnit.SECONDS).get(state)
                    .get("retention.ms").value()).isEqualTo("-1");
        }
    }

    @Test
    void writeTxnMarkersAnswersUnknownPartitionsAndNeedsClusterAction() throws Exception {
        WriteTxnMarkersRequestData request = new WriteTxnMarkersRequestData().setMarkers(List.of(
                new WriteTxnMarkersRequestData.WritableTxnMarker().setProducerId(987_654).setProducerEpoch((short) 0)
                        .setTransactionResult(false).setCoordinatorEpoch(0).setTopics(List.of(
                                new WriteTxnMarkersRequestData.WritableTxnMarkerTopic().setName("no-such-topic")
                                        .setPartitionIndexes(List.of(0)),
                                new WriteTxnMarkersRequestData.WritableTxnMarkerTopic().setName(TOPIC)
                                        .setPartitionIndexes(List.of(7))))));
        WriteTxnMarkersResponseData r = send(ApiKeys.WRITE_TXN_MARKERS, 1, request);
        assertThat(r.markers().get(0).topics()).allSatisfy(t -> assertThat(Errors.forCode(t.partitions().get(0).errorCode()))
                .isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION));

        // A broker whose principal may do everything to topics and transactional ids, but nothing to the cluster.
        TestBroker.Builder acl = TestBroker.builder(dir.resolve("acl")).config("transaction.state.log.num.partitions", "1")
                .acl("allow * ALL topic:*\nallow * ALL transactional-id:*\nallow * ALL group:*\n");
        TestBroker secured = acl.start();
        try {
            secured.createTopic(TOPIC, 1);
            WriteTxnMarkersResponseData denied = send(secured.port(), ApiKeys.WRITE_TXN_MARKERS, 1, request);
            assertThat(denied.markers().get(0).topics()).allSatisfy(t ->
                    assertThat(Errors.forCode(t.partitions().get(0).errorCode())).isEqualTo(Errors.CLUSTER_AUTHORIZATION_FAILED));
            AddPartitionsToTxnTopicCollection topics = new AddPartitionsToTxnTopicCollection();
            topics.add(new AddPartitionsToTxnTopic().setName(TOPIC).setPartitions(List.of(0)));
            AddPartitionsToTxnTransactionCollection txns = new AddPartitionsToTxnTransactionCollection();
            txns.add(new AddPartitionsToTxnTransaction().setTransactionalId("x").setProducerId(1).setProducerEpoch((short) 0)
                    .setVerifyOnly(true).setTopics(topics));
            AddPartitionsToTxnResponseData brokerForm = send(secured.port(), ApiKeys.ADD_PARTITIONS_TO_TXN, 4,
                    new AddPartitionsToTxnRequestData().setTransactions(txns));
            assertThat(Errors.forCode(brokerForm.errorCode())).isEqualTo(Errors.CLUSTER_AUTHORIZATION_FAILED);
        } finally {
            secured.close();
        }
    }
}
