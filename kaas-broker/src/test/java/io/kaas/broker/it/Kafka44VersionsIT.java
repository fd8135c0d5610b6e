package io.kaas.broker.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.network.RawClient;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.ApiVersionsRequestData;
import io.kaas.wire.message.ApiVersionsResponseData;
import io.kaas.wire.message.DeleteGroupsRequestData;
import io.kaas.wire.message.DeleteGroupsResponseData;
import io.kaas.wire.message.DescribeLogDirsRequestData;
import io.kaas.wire.message.DescribeLogDirsResponseData;
import io.kaas.wire.message.ListOffsetsRequestData;
import io.kaas.wire.message.ListOffsetsResponseData;
import io.kaas.wire.message.OffsetCommitRequestData;
import io.kaas.wire.message.OffsetCommitResponseData;
import io.kaas.wire.message.OffsetFetchRequestData;
import io.kaas.wire.message.OffsetFetchResponseData;
import io.kaas.wire.message.TxnOffsetCommitRequestData;
import io.kaas.wire.message.TxnOffsetCommitResponseData;
import io.kaas.wire.message.WriteTxnMarkersRequestData;
import io.kaas.wire.message.WriteTxnMarkersResponseData;
import io.kaas.wire.protocol.ApiMessage;
import io.kaas.wire.protocol.Errors;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The versions Kafka 4.4 added to APIs kaas serves, each by raw requests at the new version (and the 4.4 Java
 * Admin where it uses one): ApiVersions 5 (KIP-1242), ListOffsets 11 (KIP-1023), OffsetCommit 10 / OffsetFetch 10
 * (topic ids), DeleteGroups 3, DescribeLogDirs 5, TxnOffsetCommit 6 (KIP-1319), WriteTxnMarkers 2 (KIP-1228).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class Kafka44VersionsIT {
    private static final String TOPIC = "v44";

    @TempDir
    static Path dir;
    static TestBroker broker;
    static UUID topicId;
    static String clusterId;
    static int nodeId;
    private static int correlation = 1;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir);
        broker.createTopic(TOPIC, 2);
        try (Admin admin = broker.admin()) {
            topicId = uuid(admin.describeTopics(List.of(TOPIC)).allTopicNames().get().get(TOPIC).topicId());
            clusterId = admin.describeCluster().clusterId().get();
            nodeId = admin.describeCluster().nodes().get().iterator().next().id();
            // FindCoordinator opens __consumer_offsets: the raw group requests below then find this broker coordinating
            for (String group : List.of("by-id", "doomed", "never-was", "no-such-group", "g6")) {
                admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
            }
        }
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    @Test
    void apiVersionsV5RefusesAMisroutedConnectionWithRebootstrapRequired() throws Exception {
        try (RawClient raw = new RawClient(broker.port())) {
            ApiVersionsResponseData right = call(raw, ApiMessageType.API_VERSIONS, 5, v5(clusterId, nodeId));
            assertThat(right.errorCode()).isEqualTo(Errors.NONE);
            assertThat(right.apiKeys()).anySatisfy(k -> {
                assertThat(k.apiKey()).isEqualTo(ApiMessageType.API_VERSIONS.apiKey());
                assertThat(k.maxVersion()).isEqualTo((short) 5);
            });
            ApiVersionsResponseData neither = call(raw, ApiMessageType.API_VERSIONS, 5, v5(null, -1));
            assertThat(neither.errorCode()).isEqualTo(Errors.NONE);
            ApiVersionsResponseData otherCluster = call(raw, ApiMessageType.API_VERSIONS, 5, v5("another-cluster", nodeId));
            assertThat(otherCluster.errorCode()).as("REBOOTSTRAP_REQUIRED").isEqualTo((short) 129);
            assertThat(otherCluster.apiKeys()).isEmpty();
            ApiVersionsResponseData otherNode = call(raw, ApiMessageType.API_VERSIONS, 5, v5(clusterId, nodeId + 7));
            assertThat(otherNode.errorCode()).isEqualTo((short) 129);
            // v4 has no such fields: nothing to check
            assertThat(((ApiVersionsResponseData) call(raw, ApiMessageType.API_VERSIONS, 4, v5(null, -1))).errorCode())
                    .isEqualTo(Errors.NONE);
        }
        try (RawClient raw = new RawClient(broker.port())) {
            ApiVersionsResponseData half = call(raw, ApiMessageType.API_VERSIONS, 5, v5(clusterId, -1));
            assertThat(half.errorCode()).isEqualTo(Errors.INVALID_REQUEST);
        }
        try (RawClient raw = new RawClient(broker.port())) {
            ApiVersionsResponseData half = call(raw, ApiMessageType.API_VERSIONS, 5, v5(null, nodeId));
            assertThat(half.errorCode()).isEqualTo(Errors.INVALID_REQUEST);
        }
    }

    @Test
    void listOffsetsV11AnswersEarliestPendingUploadWithNoOffsetAsKafkaWithoutRemoteStorage() throws Exception {
        try (KafkaProducer<String, String> producer = broker.producer()) {
            producer.send(new ProducerRecord<>(TOPIC, 0, "k", "v")).get();
        }
        try (RawClient raw = new RawClient(broker.port())) {
            ListOffsetsResponseData r = call(raw, ApiMessageType.LIST_OFFSETS, 11, new ListOffsetsRequestData()
                    .setReplicaId(-1).setTopics(List.of(new ListOffsetsRequestData.ListOffsetsTopic().setName(TOPIC)
                            .setPartitions(List.of(new ListOffsetsRequestData.ListOffsetsPartition().setPartitionIndex(0)
                                    .setTimestamp(-6).setCurrentLeaderEpoch(-1),
                                    new ListOffsetsRequestData.ListOffsetsPartition().setPartitionIndex(0)
                                    .setTimestamp(-1).setCurrentLeaderEpoch(-1))))));
            var partitions = r.topics().get(0).partitions();
            assertThat(partitions.get(0).errorCode()).isEqualTo(Errors.NONE);
            assertThat(partitions.get(0).offset()).isEqualTo(-1);
            assertThat(partitions.get(1).offset()).as("latest, in the same request").isPositive();
        }
        // the 4.4 Admin asks OffsetSpec.earliestPendingUpload() with ListOffsets v11
        try (Admin admin = broker.admin()) {
            TopicPartition tp = new TopicPartition(TOPIC, 0);
            assertThat(admin.listOffsets(Map.of(tp, OffsetSpec.earliestPendingUpload())).partitionResult(tp).get()
                    .offset()).isEqualTo(-1);
        }
    }

    @Test
    void offsetCommitAndFetchV10NameTopicsByIdAndAnswerUnknownTopicIdForAnUnknownOne() throws Exception {
        UUID unknown = UUID.randomUUID();
        String group = "by-id";
        try (RawClient raw = new RawClient(broker.port())) {
            OffsetCommitResponseData committed = call(raw, ApiMessageType.OFFSET_COMMIT, 10, new OffsetCommitRequestData()
                    .setGroupId(group).setGenerationIdOrMemberEpoch(-1).setMemberId("")
                    .setTopics(List.of(commitTopic(topicId, 1, 42), commitTopic(unknown, 0, 7))));
            assertThat(committed.topics()).hasSize(2);
            assertThat(committed.topics().get(0).topicId()).isEqualTo(topicId);
            assertThat(committed.topics().get(0).partitions().get(0).errorCode()).isEqualTo(Errors.NONE);
            assertThat(committed.topics().get(1).topicId()).isEqualTo(unknown);
            assertThat(committed.topics().get(1).partitions().get(0).errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_ID);

            OffsetFetchResponseData fetched = call(raw, ApiMessageType.OFFSET_FETCH, 10, new OffsetFetchRequestData()
                    .setGroups(List.of(new OffsetFetchRequestData.OffsetFetchRequestGroup().setGroupId(group)
                            .setMemberEpoch(-1).setTopics(List.of(
                                    new OffsetFetchRequestData.OffsetFetchRequestTopics().setTopicId(topicId)
                                            .setPartitionIndexes(List.of(1)),
                                    new OffsetFetchRequestData.OffsetFetchRequestTopics().setTopicId(unknown)
                                            .setPartitionIndexes(List.of(0)))))));
            var g = fetched.groups().get(0);
            assertThat(g.errorCode()).isEqualTo(Errors.NONE);
            assertThat(g.topics()).hasSize(2);
            assertThat(g.topics().get(0).topicId()).isEqualTo(topicId);
            assertThat(g.topics().get(0).partitions().get(0).committedOffset()).isEqualTo(42);
            assertThat(g.topics().get(1).topicId()).isEqualTo(unknown);
            assertThat(g.topics().get(1).partitions().get(0).errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_ID);
            assertThat(g.topics().get(1).partitions().get(0).committedOffset()).isEqualTo(-1);

            OffsetFetchResponseData all = call(raw, ApiMessageType.OFFSET_FETCH, 10, new OffsetFetchRequestData()
                    .setGroups(List.of(new OffsetFetchRequestData.OffsetFetchRequestGroup().setGroupId(group)
                            .setMemberEpoch(-1).setTopics(null))));
            assertThat(all.groups().get(0).topics()).as("nothing was stored for the unknown id").singleElement()
                    .satisfies(t -> assertThat(t.topicId()).isEqualTo(topicId));
        }
        // the names a v9 client sees are those of the same offsets
        try (Admin admin = broker.admin()) {
            assertThat(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get())
                    .containsOnlyKeys(new TopicPartition(TOPIC, 1));
        }
    }

    @Test
    void deleteGroupsV3LeavesTheMessageNullForTheGroupsOwnState() throws Exception {
        try (RawClient raw = new RawClient(broker.port())) {
            call(raw, ApiMessageType.OFFSET_COMMIT, 10, new OffsetCommitRequestData().setGroupId("doomed")
                    .setGenerationIdOrMemberEpoch(-1).setMemberId("").setTopics(List.of(commitTopic(topicId, 0, 1))));
            DeleteGroupsResponseData r = call(raw, ApiMessageType.DELETE_GROUPS, 3, new DeleteGroupsRequestData()
                    .setGroupsNames(List.of("doomed", "never-was")));
            assertThat(r.results()).extracting(x -> x.groupId() + " " + x.errorCode() + " " + x.errorMessage())
                    .containsExactly("doomed 0 null", "never-was " + Errors.GROUP_ID_NOT_FOUND + " null");
        }
    }

    @Test
    void describeLogDirsV5SaysTheDirectoryIsNotCordoned() throws Exception {
        try (RawClient raw = new RawClient(broker.port())) {
            DescribeLogDirsResponseData r = call(raw, ApiMessageType.DESCRIBE_LOG_DIRS, 5,
                    new DescribeLogDirsRequestData().setTopics(null));
            assertThat(r.results()).singleElement().satisfies(d -> {
                assertThat(d.errorCode()).isEqualTo(Errors.NONE);
                assertThat(d.isCordoned()).isFalse();
                assertThat(d.topics()).anySatisfy(t -> assertThat(t.name()).isEqualTo(TOPIC));
            });
        }
    }

    @Test
    void txnOffsetCommitV6NamesTopicsByIdAndAnswersTheErrorsOlderVersionsFoldIntoIllegalGeneration() throws Exception {
        try (KafkaProducer<String, String> producer = broker.producer(Map.of(
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, "tx-v6"))) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(TOPIC, 0, "k", "v")).get();
            TransactionDescription tx;
            try (Admin admin = broker.admin()) {
                tx = admin.describeTransactions(List.of("tx-v6")).description("tx-v6").get();
            }
            try (RawClient raw = new RawClient(broker.port())) {
                TxnOffsetCommitResponseData unknownId = call(raw, ApiMessageType.TXN_OFFSET_COMMIT, 6,
                        txnCommit(tx, "g6", -1, UUID.randomUUID(), TOPIC));
                assertThat(unknownId.topics().get(0).partitions().get(0).errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_ID);
                // an unknown group named with a generation
                TxnOffsetCommitResponseData v6 = call(raw, ApiMessageType.TXN_OFFSET_COMMIT, 6,
                        txnCommit(tx, "no-such-group", 5, topicId, TOPIC));
                assertThat(v6.topics().get(0).topicId()).isEqualTo(topicId);
                assertThat(v6.topics().get(0).partitions().get(0).errorCode()).isEqualTo(Errors.GROUP_ID_NOT_FOUND);
                TxnOffsetCommitResponseData v5 = call(raw, ApiMessageType.TXN_OFFSET_COMMIT, 5,
                        txnCommit(tx, "no-such-group", 5, topicId, TOPIC));
                assertThat(v5.topics().get(0).name()).isEqualTo(TOPIC);
                assertThat(v5.topics().get(0).partitions().get(0).errorCode()).isEqualTo(Errors.ILLEGAL_GENERATION);
            }
            producer.abortTransaction();
        }
    }

    @Test
    void writeTxnMarkersV2RefusesATransactionsV2MarkerWhoseEpochWasNotBumped() throws Exception {
        try (KafkaProducer<String, String> producer = broker.producer(Map.of(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                true))) {
            producer.send(new ProducerRecord<>(TOPIC, 1, "k", "v")).get();
        }
        ProducerState state;
        try (Admin admin = broker.admin()) {
            state = admin.describeProducers(List.of(new TopicPartition(TOPIC, 1))).partitionResult(
                    new TopicPartition(TOPIC, 1)).get().activeProducers().get(0);
        }
        short epoch = (short) state.producerEpoch();
        try (RawClient raw = new RawClient(broker.port())) {
            assertThat(marker(raw, 2, state.producerId(), epoch, (byte) 2)).as("TV2 at the same epoch")
                    .isEqualTo(Errors.INVALID_PRODUCER_EPOCH);
            assertThat(marker(raw, 2, state.producerId(), epoch, (byte) 0)).as("TV0 at the same epoch")
                    .isEqualTo(Errors.NONE);
            assertThat(marker(raw, 2, state.producerId(), (short) (epoch + 1), (byte) 2)).as("TV2, bumped")
                    .isEqualTo(Errors.NONE);
            assertThat(marker(raw, 1, state.producerId(), (short) (epoch + 1), (byte) 2))
                    .as("v1 has no transaction version: the same epoch is accepted").isEqualTo(Errors.NONE);
        }
    }

    private static short marker(RawClient raw, int version, long producerId, short epoch, byte transactionVersion)
            throws IOException {
        WriteTxnMarkersResponseData r = call(raw, ApiMessageType.WRITE_TXN_MARKERS, version,
                new WriteTxnMarkersRequestData().setMarkers(List.of(new WriteTxnMarkersRequestData.WritableTxnMarker()
                        .setProducerId(producerId).setProducerEpoch(epoch).setTransactionResult(false)
                        .setCoordinatorEpoch(0).setTransactionVersion(transactionVersion)
                        .setTopics(List.of(new WriteTxnMarkersRequestData.WritableTxnMarkerTopic().setName(TOPIC)
                                .setPartitionIndexes(List.of(1)))))));
        return r.markers().get(0).topics().get(0).partitions().get(0).errorCode();
    }

    private static TxnOffsetCommitRequestData txnCommit(TransactionDescription tx, String group, int generation,
                                                        UUID id, String name) {
        return new TxnOffsetCommitRequestData().setTransactionalId("tx-v6").setGroupId(group)
                .setProducerId(tx.producerId()).setProducerEpoch((short) tx.producerEpoch())
                .setGenerationIdOrMemberEpoch(generation).setMemberId(generation < 0 ? "" : "m")
                .setTopics(List.of(new TxnOffsetCommitRequestData.TxnOffsetCommitRequestTopic().setTopicId(id).setName(name)
                        .setPartitions(List.of(new TxnOffsetCommitRequestData.TxnOffsetCommitRequestPartition()
                                .setPartitionIndex(0).setCommittedOffset(1).setCommittedLeaderEpoch(-1)
                                .setCommittedMetadata("")))));
    }

    private static OffsetCommitRequestData.OffsetCommitRequestTopic commitTopic(UUID id, int partition, long offset) {
        return new OffsetCommitRequestData.OffsetCommitRequestTopic().setTopicId(id)
                .setPartitions(List.of(new OffsetCommitRequestData.OffsetCommitRequestPartition()
                        .setPartitionIndex(partition).setCommittedOffset(offset).setCommittedLeaderEpoch(-1)
                        .setCommittedMetadata("")));
    }

    private static ApiVersionsRequestData v5(String cluster, int node) {
        return new ApiVersionsRequestData().setClientSoftwareName("kaas-test").setClientSoftwareVersion("1.0")
                .setClusterId(cluster).setNodeId(node);
    }

    private static UUID uuid(org.apache.kafka.common.Uuid id) {
        return new UUID(id.getMostSignificantBits(), id.getLeastSignificantBits());
    }

    @SuppressWarnings("unchecked")
    private static <T extends ApiMessage> T call(RawClient raw, ApiMessageType api, int version, ApiMessage body)
            throws IOException {
        int id = correlation++;
        raw.send(api, (short) version, id, body);
        RawClient.Response<ApiMessage> response = raw.read(api, (short) version);
        assertThat(response.correlationId()).isEqualTo(id);
        return (T) response.body();
    }
}
