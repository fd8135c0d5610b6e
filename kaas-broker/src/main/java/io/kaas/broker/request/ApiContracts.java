package io.kaas.broker.request;

import static io.kaas.api.auth.ResourceType.CLUSTER;
import static io.kaas.api.auth.ResourceType.GROUP;
import static io.kaas.api.auth.ResourceType.TOPIC;
import static io.kaas.api.auth.ResourceType.TRANSACTIONAL_ID;

import io.kaas.api.auth.Action;
import io.kaas.api.auth.Operation;
import io.kaas.broker.auth.Check;
import io.kaas.wire.message.AddOffsetsToTxnRequestData;
import io.kaas.wire.message.AddOffsetsToTxnResponseData;
import io.kaas.wire.message.AddPartitionsToTxnRequestData;
import io.kaas.wire.message.AddPartitionsToTxnResponseData;
import io.kaas.wire.message.DescribeProducersRequestData;
import io.kaas.wire.message.DescribeProducersResponseData;
import io.kaas.wire.message.DescribeTransactionsRequestData;
import io.kaas.wire.message.DescribeTransactionsResponseData;
import io.kaas.wire.message.EndTxnRequestData;
import io.kaas.wire.message.EndTxnResponseData;
import io.kaas.wire.message.ListTransactionsRequestData;
import io.kaas.wire.message.ListTransactionsResponseData;
import io.kaas.wire.message.TxnOffsetCommitRequestData;
import io.kaas.wire.message.TxnOffsetCommitResponseData;
import io.kaas.wire.message.WriteTxnMarkersRequestData;
import io.kaas.wire.message.WriteTxnMarkersResponseData;
import io.kaas.wire.message.AlterUserScramCredentialsRequestData;
import io.kaas.wire.message.AlterUserScramCredentialsResponseData;
import io.kaas.wire.message.AlterClientQuotasRequestData;
import io.kaas.wire.message.AlterClientQuotasResponseData;
import io.kaas.wire.message.DescribeClientQuotasRequestData;
import io.kaas.wire.message.DescribeClientQuotasResponseData;
import io.kaas.wire.message.DescribeLogDirsRequestData;
import io.kaas.wire.message.DescribeLogDirsResponseData;
import io.kaas.wire.message.DescribeUserScramCredentialsRequestData;
import io.kaas.wire.message.DescribeUserScramCredentialsResponseData;
import io.kaas.wire.message.CreateAclsRequestData;
import io.kaas.wire.message.CreateAclsResponseData;
import io.kaas.wire.message.DeleteAclsRequestData;
import io.kaas.wire.message.DeleteAclsResponseData;
import io.kaas.wire.message.DescribeAclsRequestData;
import io.kaas.wire.message.DescribeAclsResponseData;
import io.kaas.wire.message.AlterConfigsRequestData;
import io.kaas.wire.message.AlterConfigsResponseData;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.ApiVersionsRequestData;
import io.kaas.wire.message.ApiVersionsResponseData;
import io.kaas.wire.message.ConsumerGroupDescribeRequestData;
import io.kaas.wire.message.ConsumerGroupDescribeResponseData;
import io.kaas.wire.message.ConsumerGroupHeartbeatRequestData;
import io.kaas.wire.message.ConsumerGroupHeartbeatResponseData;
import io.kaas.wire.message.AlterPartitionReassignmentsRequestData;
import io.kaas.wire.message.AlterPartitionReassignmentsResponseData;
import io.kaas.wire.message.ElectLeadersRequestData;
import io.kaas.wire.message.ElectLeadersResponseData;
import io.kaas.wire.message.ListPartitionReassignmentsRequestData;
import io.kaas.wire.message.ListPartitionReassignmentsResponseData;
import io.kaas.wire.message.CreatePartitionsRequestData;
import io.kaas.wire.message.CreatePartitionsResponseData;
import io.kaas.wire.message.CreateTopicsRequestData;
import io.kaas.wire.message.CreateTopicsResponseData;
import io.kaas.wire.message.DeleteGroupsRequestData;
import io.kaas.wire.message.DeleteGroupsResponseData;
import io.kaas.wire.message.DeleteRecordsRequestData;
import io.kaas.wire.message.DeleteRecordsResponseData;
import io.kaas.wire.message.DeleteTopicsRequestData;
import io.kaas.wire.message.DeleteTopicsResponseData;
import io.kaas.wire.message.DescribeClusterRequestData;
import io.kaas.wire.message.DescribeClusterResponseData;
import io.kaas.wire.message.DescribeConfigsRequestData;
import io.kaas.wire.message.DescribeConfigsResponseData;
import io.kaas.wire.message.DescribeGroupsRequestData;
import io.kaas.wire.message.DescribeGroupsResponseData;
import io.kaas.wire.message.DescribeTopicPartitionsRequestData;
import io.kaas.wire.message.DescribeTopicPartitionsResponseData;
import io.kaas.wire.message.FetchRequestData;
import io.kaas.wire.message.FetchResponseData;
import io.kaas.wire.message.FindCoordinatorRequestData;
import io.kaas.wire.message.FindCoordinatorResponseData;
import io.kaas.wire.message.HeartbeatRequestData;
import io.kaas.wire.message.HeartbeatResponseData;
import io.kaas.wire.message.IncrementalAlterConfigsRequestData;
import io.kaas.wire.message.IncrementalAlterConfigsResponseData;
import io.kaas.wire.message.ListConfigResourcesRequestData;
import io.kaas.wire.message.ListConfigResourcesResponseData;
import io.kaas.wire.message.InitProducerIdRequestData;
import io.kaas.wire.message.InitProducerIdResponseData;
import io.kaas.wire.message.JoinGroupRequestData;
import io.kaas.wire.message.JoinGroupResponseData;
import io.kaas.wire.message.LeaveGroupRequestData;
import io.kaas.wire.message.LeaveGroupResponseData;
import io.kaas.wire.message.ListGroupsRequestData;
import io.kaas.wire.message.ListGroupsResponseData;
import io.kaas.wire.message.ListOffsetsRequestData;
import io.kaas.wire.message.ListOffsetsResponseData;
import io.kaas.wire.message.OffsetForLeaderEpochRequestData;
import io.kaas.wire.message.OffsetForLeaderEpochResponseData;
import io.kaas.wire.message.MetadataRequestData;
import io.kaas.wire.message.MetadataResponseData;
import io.kaas.wire.message.OffsetCommitRequestData;
import io.kaas.wire.message.OffsetCommitResponseData;
import io.kaas.wire.message.OffsetDeleteRequestData;
import io.kaas.wire.message.OffsetDeleteResponseData;
import io.kaas.wire.message.OffsetFetchRequestData;
import io.kaas.wire.message.OffsetFetchResponseData;
import io.kaas.wire.message.ProduceRequestData;
import io.kaas.wire.message.ProduceResponseData;
import io.kaas.wire.message.SaslAuthenticateRequestData;
import io.kaas.wire.message.SaslAuthenticateResponseData;
import io.kaas.wire.message.SaslHandshakeRequestData;
import io.kaas.wire.message.SaslHandshakeResponseData;
import io.kaas.wire.message.SyncGroupRequestData;
import io.kaas.wire.message.SyncGroupResponseData;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Every API's contract, one row each: versions served (and advertised, where that differs), the checks
 * on the whole request the pipeline makes before the handler, and the per-resource questions the
 * handler may ask. Authorization follows Kafka 4.x's {@code KafkaApis}: e.g. CreateTopics needs CREATE
 * on the cluster or on each topic; the group APIs need READ (members, commits), DESCRIBE (describe,
 * fetch, list) or DELETE on the group, answered GROUP_AUTHORIZATION_FAILED. A new API is served by
 * adding its row here and registering its handler with it.
 */
public final class ApiContracts {
    private ApiContracts() {
    }

    /** Kafka's message of GROUP_AUTHORIZATION_FAILED, for APIs whose error response carries one. */
    static final String GROUP_DENIED = "Group authorization failed.";

    public static final ApiSpec<ApiVersionsRequestData, ApiVersionsResponseData> API_VERSIONS =
            ApiSpec.of(ApiMessageType.API_VERSIONS, 0, 5);

    // --- authentication (no ACL checks: they run before there is a principal to check) ---

    /**
     * v1 served (KIP-152: the tokens follow in SaslAuthenticate), advertised from v0 as Kafka does: librdkafka sees
     * no SASL support at all unless v0 is listed. A v0 handshake (raw SASL tokens after it, sent only by clients
     * older than Kafka 1.0) closes the connection.
     */
    public static final ApiSpec<SaslHandshakeRequestData, SaslHandshakeResponseData> SASL_HANDSHAKE =
            ApiSpec.<SaslHandshakeRequestData, SaslHandshakeResponseData>of(ApiMessageType.SASL_HANDSHAKE, 1, 1)
                    .advertisedFrom(0);

    /** v0-2; session_lifetime_ms (KIP-368 re-authentication) from v1. */
    public static final ApiSpec<SaslAuthenticateRequestData, SaslAuthenticateResponseData> SASL_AUTHENTICATE =
            ApiSpec.of(ApiMessageType.SASL_AUTHENTICATE, 0, 2);

    // --- records ---

    /** Produce v3-13, advertised from v0 though v0-2 are refused: librdkafka needs it (KAFKA-18659). */
    public static final ApiSpec<ProduceRequestData, ProduceResponseData> PRODUCE =
            ApiSpec.<ProduceRequestData, ProduceResponseData>of(ApiMessageType.PRODUCE, 3, 13).advertisedFrom(0)
                    .checks(Check.of(Operation.WRITE, TRANSACTIONAL_ID), Check.of(Operation.WRITE, TOPIC));

    public static final ApiSpec<FetchRequestData, FetchResponseData> FETCH =
            ApiSpec.<FetchRequestData, FetchResponseData>of(ApiMessageType.FETCH, 4, 18)
                    .checks(Check.of(Operation.READ, TOPIC));

    public static final ApiSpec<ListOffsetsRequestData, ListOffsetsResponseData> LIST_OFFSETS =
            ApiSpec.<ListOffsetsRequestData, ListOffsetsResponseData>of(ApiMessageType.LIST_OFFSETS, 1, 11)
                    .checks(Check.of(Operation.DESCRIBE, TOPIC));

    /**
     * As Kafka 4.x (v0-1 removed by KIP-896): CLUSTER_ACTION on the cluster (a follower) allows every topic, else
     * DESCRIBE on each topic (a consumer validating its position, KIP-320).
     */
    public static final ApiSpec<OffsetForLeaderEpochRequestData, OffsetForLeaderEpochResponseData> OFFSET_FOR_LEADER_EPOCH =
            ApiSpec.<OffsetForLeaderEpochRequestData, OffsetForLeaderEpochResponseData>of(
                            ApiMessageType.OFFSET_FOR_LEADER_EPOCH, 2, 4)
                    .checks(Check.of(Operation.CLUSTER_ACTION, CLUSTER), Check.of(Operation.DESCRIBE, TOPIC));

    public static final ApiSpec<DeleteRecordsRequestData, DeleteRecordsResponseData> DELETE_RECORDS =
            ApiSpec.<DeleteRecordsRequestData, DeleteRecordsResponseData>of(ApiMessageType.DELETE_RECORDS, 0, 2)
                    .checks(Check.of(Operation.DELETE, TOPIC));

    /**
     * A transactional producer needs WRITE on its transactional id (TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
     * an idempotent one IDEMPOTENT_WRITE on the cluster or WRITE on any topic (CLUSTER_AUTHORIZATION_FAILED).
     */
    public static final ApiSpec<InitProducerIdRequestData, InitProducerIdResponseData> INIT_PRODUCER_ID =
            ApiSpec.<InitProducerIdRequestData, InitProducerIdResponseData>of(ApiMessageType.INIT_PRODUCER_ID, 0, 5)
                    .requires(Operation.WRITE, TRANSACTIONAL_ID, (r, v) -> r.transactionalId(),
                            (r, v, error) -> new InitProducerIdResponseData().setErrorCode(error)
                                    .setProducerId(-1).setProducerEpoch((short) -1))
                    .checks(Check.of(Operation.IDEMPOTENT_WRITE, CLUSTER), Check.of(Operation.WRITE, TOPIC));

    // --- metadata and topic administration ---

    public static final ApiSpec<MetadataRequestData, MetadataResponseData> METADATA =
            ApiSpec.<MetadataRequestData, MetadataResponseData>of(ApiMessageType.METADATA, 0, 13)
                    .checks(Check.of(Operation.DESCRIBE, TOPIC), Check.orCluster(Operation.CREATE, TOPIC));

    public static final ApiSpec<DescribeClusterRequestData, DescribeClusterResponseData> DESCRIBE_CLUSTER =
            ApiSpec.of(ApiMessageType.DESCRIBE_CLUSTER, 0, 2);

    public static final ApiSpec<DescribeTopicPartitionsRequestData, DescribeTopicPartitionsResponseData>
            DESCRIBE_TOPIC_PARTITIONS = ApiSpec.<DescribeTopicPartitionsRequestData, DescribeTopicPartitionsResponseData>of(
                    ApiMessageType.DESCRIBE_TOPIC_PARTITIONS, 0, 0).checks(Check.of(Operation.DESCRIBE, TOPIC));

    public static final ApiSpec<CreateTopicsRequestData, CreateTopicsResponseData> CREATE_TOPICS =
            ApiSpec.<CreateTopicsRequestData, CreateTopicsResponseData>of(ApiMessageType.CREATE_TOPICS, 2, 7)
                    .checks(Check.orCluster(Operation.CREATE, TOPIC), Check.of(Operation.DESCRIBE_CONFIGS, TOPIC));

    public static final ApiSpec<DeleteTopicsRequestData, DeleteTopicsResponseData> DELETE_TOPICS =
            ApiSpec.<DeleteTopicsRequestData, DeleteTopicsResponseData>of(ApiMessageType.DELETE_TOPICS, 1, 6)
                    .checks(Check.of(Operation.DELETE, TOPIC), Check.of(Operation.DESCRIBE, TOPIC));

    public static final ApiSpec<CreatePartitionsRequestData, CreatePartitionsResponseData> CREATE_PARTITIONS =
            ApiSpec.<CreatePartitionsRequestData, CreatePartitionsResponseData>of(ApiMessageType.CREATE_PARTITIONS, 0, 3)
                    .checks(Check.of(Operation.ALTER, TOPIC));

    public static final ApiSpec<DescribeConfigsRequestData, DescribeConfigsResponseData> DESCRIBE_CONFIGS =
            ApiSpec.<DescribeConfigsRequestData, DescribeConfigsResponseData>of(ApiMessageType.DESCRIBE_CONFIGS, 1, 4)
                    .checks(Check.of(Operation.DESCRIBE_CONFIGS, TOPIC), Check.of(Operation.DESCRIBE_CONFIGS, CLUSTER),
                            Check.of(Operation.DESCRIBE_CONFIGS, GROUP));

    public static final ApiSpec<AlterConfigsRequestData, AlterConfigsResponseData> ALTER_CONFIGS =
            ApiSpec.<AlterConfigsRequestData, AlterConfigsResponseData>of(ApiMessageType.ALTER_CONFIGS, 0, 2)
                    .checks(Check.of(Operation.ALTER_CONFIGS, TOPIC), Check.of(Operation.ALTER_CONFIGS, CLUSTER),
                            Check.of(Operation.ALTER_CONFIGS, GROUP));

    public static final ApiSpec<IncrementalAlterConfigsRequestData, IncrementalAlterConfigsResponseData>
            INCREMENTAL_ALTER_CONFIGS = ApiSpec.<IncrementalAlterConfigsRequestData, IncrementalAlterConfigsResponseData>of(
                    ApiMessageType.INCREMENTAL_ALTER_CONFIGS, 0, 1)
                    .checks(Check.of(Operation.ALTER_CONFIGS, TOPIC), Check.of(Operation.ALTER_CONFIGS, CLUSTER),
                            Check.of(Operation.ALTER_CONFIGS, GROUP));

    /** DESCRIBE_CONFIGS on the cluster, else CLUSTER_AUTHORIZATION_FAILED for the whole request, as KafkaApis. */
    public static final ApiSpec<ListConfigResourcesRequestData, ListConfigResourcesResponseData> LIST_CONFIG_RESOURCES =
            ApiSpec.<ListConfigResourcesRequestData, ListConfigResourcesResponseData>of(
                    ApiMessageType.LIST_CONFIG_RESOURCES, 0, 1)
                    .requires(Operation.DESCRIBE_CONFIGS, CLUSTER, (r, v) -> Action.CLUSTER_NAME,
                            (r, v, error) -> new ListConfigResourcesResponseData().setErrorCode(error));

    // --- partition moves (one writer per partition) ---

    /**
     * ALTER on the cluster, else CLUSTER_AUTHORIZATION_FAILED on the response and on every partition, as Kafka's
     * {@code AlterPartitionReassignmentsRequest.getErrorResponse}.
     */
    public static final ApiSpec<AlterPartitionReassignmentsRequestData, AlterPartitionReassignmentsResponseData>
            ALTER_PARTITION_REASSIGNMENTS = ApiSpec.<AlterPartitionReassignmentsRequestData,
                    AlterPartitionReassignmentsResponseData>of(ApiMessageType.ALTER_PARTITION_REASSIGNMENTS, 0, 1)
                    .requires(Operation.ALTER, CLUSTER, (r, v) -> Action.CLUSTER_NAME, (r, v, error) -> {
                        String message = "Cluster authorization failed.";
                        var topics = new java.util.ArrayList<AlterPartitionReassignmentsResponseData.ReassignableTopicResponse>();
                        for (var t : r.topics()) {
                            var partitions = new java.util.ArrayList<
                                    AlterPartitionReassignmentsResponseData.ReassignablePartitionResponse>();
                            t.partitions().forEach(p -> partitions.add(
                                    new AlterPartitionReassignmentsResponseData.ReassignablePartitionResponse()
                                            .setPartitionIndex(p.partitionIndex()).setErrorCode(error)
                                            .setErrorMessage(message)));
                            topics.add(new AlterPartitionReassignmentsResponseData.ReassignableTopicResponse()
                                    .setName(t.name()).setPartitions(partitions));
                        }
                        return new AlterPartitionReassignmentsResponseData().setErrorCode(error).setErrorMessage(message)
                                .setResponses(topics);
                    });

    /** DESCRIBE on the cluster, else CLUSTER_AUTHORIZATION_FAILED with the requested partitions, as Kafka. */
    public static final ApiSpec<ListPartitionReassignmentsRequestData, ListPartitionReassignmentsResponseData>
            LIST_PARTITION_REASSIGNMENTS = ApiSpec.<ListPartitionReassignmentsRequestData,
                    ListPartitionReassignmentsResponseData>of(ApiMessageType.LIST_PARTITION_REASSIGNMENTS, 0, 0)
                    .requires(Operation.DESCRIBE, CLUSTER, (r, v) -> Action.CLUSTER_NAME, (r, v, error) -> {
                        var topics = new java.util.ArrayList<ListPartitionReassignmentsResponseData.OngoingTopicReassignment>();
                        if (r.topics() != null) {
                            for (var t : r.topics()) {
                                var partitions = new java.util.ArrayList<
                                        ListPartitionReassignmentsResponseData.OngoingPartitionReassignment>();
                                t.partitionIndexes().forEach(p -> partitions.add(
                                        new ListPartitionReassignmentsResponseData.OngoingPartitionReassignment()
                                                .setPartitionIndex(p)));
                                topics.add(new ListPartitionReassignmentsResponseData.OngoingTopicReassignment()
                                        .setName(t.name()).setPartitions(partitions));
                            }
                        }
                        return new ListPartitionReassignmentsResponseData().setErrorCode(error)
                                .setErrorMessage("Cluster authorization failed.").setTopics(topics);
                    });

    /** ALTER on the cluster, else CLUSTER_AUTHORIZATION_FAILED on the response (v1+) and every named partition. */
    public static final ApiSpec<ElectLeadersRequestData, ElectLeadersResponseData> ELECT_LEADERS =
            ApiSpec.<ElectLeadersRequestData, ElectLeadersResponseData>of(ApiMessageType.ELECT_LEADERS, 0, 2)
                    .requires(Operation.ALTER, CLUSTER, (r, v) -> Action.CLUSTER_NAME, (r, v, error) -> {
                        var results = new java.util.ArrayList<ElectLeadersResponseData.ReplicaElectionResult>();
                        if (r.topicPartitions() != null) {
                            for (var t : r.topicPartitions()) {
                                var partitions = new java.util.ArrayList<ElectLeadersResponseData.PartitionResult>();
                                t.partitions().forEach(p -> partitions.add(new ElectLeadersResponseData.PartitionResult()
                                        .setPartitionId(p).setErrorCode(error)
                                        .setErrorMessage("Cluster authorization failed.")));
                                results.add(new ElectLeadersResponseData.ReplicaElectionResult().setTopic(t.topic())
                                        .setPartitionResult(partitions));
                            }
                        }
                        return new ElectLeadersResponseData().setErrorCode(error).setReplicaElectionResults(results);
                    });

    // --- SCRAM credentials ---

    /**
     * DESCRIBE on the cluster, else CLUSTER_AUTHORIZATION_FAILED at the top and on each user asked, as KafkaApis
     * (Kafka's {@code DescribeUserScramCredentialsRequest.getErrorResponse}).
     */
    public static final ApiSpec<DescribeUserScramCredentialsRequestData, DescribeUserScramCredentialsResponseData>
            DESCRIBE_USER_SCRAM_CREDENTIALS = ApiSpec.<DescribeUserScramCredentialsRequestData,
                    DescribeUserScramCredentialsResponseData>of(ApiMessageType.DESCRIBE_USER_SCRAM_CREDENTIALS, 0, 0)
                    .requires(Operation.DESCRIBE, CLUSTER, (r, v) -> Action.CLUSTER_NAME, ApiContracts::describeScramDenied);

    /**
     * ALTER on the cluster, else CLUSTER_AUTHORIZATION_FAILED on every user named, sorted, as Kafka's controller
     * ({@code AlterUserScramCredentialsRequest.getErrorResponse}).
     */
    public static final ApiSpec<AlterUserScramCredentialsRequestData, AlterUserScramCredentialsResponseData>
            ALTER_USER_SCRAM_CREDENTIALS = ApiSpec.<AlterUserScramCredentialsRequestData,
                    AlterUserScramCredentialsResponseData>of(ApiMessageType.ALTER_USER_SCRAM_CREDENTIALS, 0, 0)
                    .requires(Operation.ALTER, CLUSTER, (r, v) -> Action.CLUSTER_NAME, ApiContracts::alterScramDenied);

    /** DESCRIBE_CONFIGS on the cluster, else CLUSTER_AUTHORIZATION_FAILED with no entries, as KafkaApis. */
    public static final ApiSpec<DescribeClientQuotasRequestData, DescribeClientQuotasResponseData> DESCRIBE_CLIENT_QUOTAS =
            ApiSpec.<DescribeClientQuotasRequestData, DescribeClientQuotasResponseData>of(
                            ApiMessageType.DESCRIBE_CLIENT_QUOTAS, 0, 1)
                    .requires(Operation.DESCRIBE_CONFIGS, CLUSTER, (r, v) -> Action.CLUSTER_NAME,
                            (r, v, error) -> new DescribeClientQuotasResponseData().setErrorCode(error).setEntries(null));

    /** ALTER_CONFIGS on the cluster, else CLUSTER_AUTHORIZATION_FAILED for every entry, as KafkaApis. */
    public static final ApiSpec<AlterClientQuotasRequestData, AlterClientQuotasResponseData> ALTER_CLIENT_QUOTAS =
            ApiSpec.<AlterClientQuotasRequestData, AlterClientQuotasResponseData>of(
                            ApiMessageType.ALTER_CLIENT_QUOTAS, 0, 1)
                    .requires(Operation.ALTER_CONFIGS, CLUSTER, (r, v) -> Action.CLUSTER_NAME,
                            ApiContracts::alterClientQuotasDenied);

    private static AlterClientQuotasResponseData alterClientQuotasDenied(AlterClientQuotasRequestData request,
                                                                         short version, short error) {
        List<AlterClientQuotasResponseData.EntryData> entries = new ArrayList<>();
        for (AlterClientQuotasRequestData.EntryData e : request.entries()) {
            List<AlterClientQuotasResponseData.EntityData> entity = new ArrayList<>();
            e.entity().forEach(d -> entity.add(new AlterClientQuotasResponseData.EntityData()
                    .setEntityType(d.entityType()).setEntityName(d.entityName())));
            entries.add(new AlterClientQuotasResponseData.EntryData().setErrorCode(error)
                    .setErrorMessage(CLUSTER_DENIED).setEntity(entity));
        }
        return new AlterClientQuotasResponseData().setEntries(entries);
    }
    /**
     * DescribeLogDirs v1-5 (v0 removed by KIP-896): DESCRIBE on the cluster, else CLUSTER_AUTHORIZATION_FAILED at the top
     * with no log dir, as KafkaApis (v1-2 have no top-level error: the answer is then just empty).
     */
    public static final ApiSpec<DescribeLogDirsRequestData, DescribeLogDirsResponseData> DESCRIBE_LOG_DIRS =
            ApiSpec.<DescribeLogDirsRequestData, DescribeLogDirsResponseData>of(ApiMessageType.DESCRIBE_LOG_DIRS, 1, 5)
                    .requires(Operation.DESCRIBE, CLUSTER, (r, v) -> Action.CLUSTER_NAME,
                            (r, v, error) -> new DescribeLogDirsResponseData().setErrorCode(error)
                                    .setResults(new java.util.ArrayList<>()));
    // --- ACLs (Kafka 4.x: v0 removed by KIP-896) ---

    /** Kafka's message of CLUSTER_AUTHORIZATION_FAILED. */
    static final String CLUSTER_DENIED = "Cluster authorization failed.";

    /** DESCRIBE on the cluster, else the top-level CLUSTER_AUTHORIZATION_FAILED, as Kafka's AclApis. */
    public static final ApiSpec<DescribeAclsRequestData, DescribeAclsResponseData> DESCRIBE_ACLS =
            ApiSpec.<DescribeAclsRequestData, DescribeAclsResponseData>of(ApiMessageType.DESCRIBE_ACLS, 1, 3)
                    .requires(Operation.DESCRIBE, CLUSTER, (r, v) -> Action.CLUSTER_NAME,
                            (r, v, error) -> new DescribeAclsResponseData().setErrorCode(error)
                                    .setErrorMessage(CLUSTER_DENIED));

    /** ALTER on the cluster, else CLUSTER_AUTHORIZATION_FAILED on every creation, as Kafka's AclApis. */
    public static final ApiSpec<CreateAclsRequestData, CreateAclsResponseData> CREATE_ACLS =
            ApiSpec.<CreateAclsRequestData, CreateAclsResponseData>of(ApiMessageType.CREATE_ACLS, 1, 3)
                    .requires(Operation.ALTER, CLUSTER, (r, v) -> Action.CLUSTER_NAME,
                            (r, v, error) -> new CreateAclsResponseData().setResults(r.creations().stream()
                                    .map(c -> new CreateAclsResponseData.AclCreationResult().setErrorCode(error)
                                            .setErrorMessage(CLUSTER_DENIED)).toList()));

    /** ALTER on the cluster, else CLUSTER_AUTHORIZATION_FAILED on every filter, as Kafka's AclApis. */
    public static final ApiSpec<DeleteAclsRequestData, DeleteAclsResponseData> DELETE_ACLS =
            ApiSpec.<DeleteAclsRequestData, DeleteAclsResponseData>of(ApiMessageType.DELETE_ACLS, 1, 3)
                    .requires(Operation.ALTER, CLUSTER, (r, v) -> Action.CLUSTER_NAME,
                            (r, v, error) -> new DeleteAclsResponseData().setFilterResults(r.filters().stream()
                                    .map(f -> new DeleteAclsResponseData.DeleteAclsFilterResult().setErrorCode(error)
                                            .setErrorMessage(CLUSTER_DENIED)).toList()));

    // --- groups ---

    /** DESCRIBE on each key's group (or transactional id), per key in v4+. */
    public static final ApiSpec<FindCoordinatorRequestData, FindCoordinatorResponseData> FIND_COORDINATOR =
            ApiSpec.<FindCoordinatorRequestData, FindCoordinatorResponseData>of(ApiMessageType.FIND_COORDINATOR, 0, 6)
                    .checks(Check.of(Operation.DESCRIBE, GROUP), Check.of(Operation.DESCRIBE, TRANSACTIONAL_ID));

    public static final ApiSpec<JoinGroupRequestData, JoinGroupResponseData> JOIN_GROUP =
            ApiSpec.<JoinGroupRequestData, JoinGroupResponseData>of(ApiMessageType.JOIN_GROUP, 0, 9)
                    .requires(Operation.READ, GROUP, (r, v) -> r.groupId(), (r, v, error) -> new JoinGroupResponseData()
                            .setErrorCode(error).setGenerationId(-1).setMemberId("").setLeader("")
                            .setProtocolName(v >= 7 ? null : ""));

    public static final ApiSpec<SyncGroupRequestData, SyncGroupResponseData> SYNC_GROUP =
            ApiSpec.<SyncGroupRequestData, SyncGroupResponseData>of(ApiMessageType.SYNC_GROUP, 0, 5)
                    .requires(Operation.READ, GROUP, (r, v) -> r.groupId(),
                            (r, v, error) -> new SyncGroupResponseData().setErrorCode(error));

    public static final ApiSpec<HeartbeatRequestData, HeartbeatResponseData> HEARTBEAT =
            ApiSpec.<HeartbeatRequestData, HeartbeatResponseData>of(ApiMessageType.HEARTBEAT, 0, 4)
                    .requires(Operation.READ, GROUP, (r, v) -> r.groupId(),
                            (r, v, error) -> new HeartbeatResponseData().setErrorCode(error));

    public static final ApiSpec<LeaveGroupRequestData, LeaveGroupResponseData> LEAVE_GROUP =
            ApiSpec.<LeaveGroupRequestData, LeaveGroupResponseData>of(ApiMessageType.LEAVE_GROUP, 0, 5)
                    .requires(Operation.READ, GROUP, (r, v) -> r.groupId(),
                            (r, v, error) -> new LeaveGroupResponseData().setErrorCode(error));

    /** READ on the group (every partition answered GROUP_AUTHORIZATION_FAILED), then READ on each topic. */
    public static final ApiSpec<OffsetCommitRequestData, OffsetCommitResponseData> OFFSET_COMMIT =
            ApiSpec.<OffsetCommitRequestData, OffsetCommitResponseData>of(ApiMessageType.OFFSET_COMMIT, 2, 10)
                    .requires(Operation.READ, GROUP, (r, v) -> r.groupId(), ApiContracts::commitDenied)
                    .checks(Check.of(Operation.READ, TOPIC));

    /**
     * DESCRIBE on the group (v1-7 whole request, v8+ per group), then DESCRIBE on each topic: a topic
     * asked for is answered TOPIC_AUTHORIZATION_FAILED, one not asked for (all offsets) is left out.
     */
    public static final ApiSpec<OffsetFetchRequestData, OffsetFetchResponseData> OFFSET_FETCH =
            ApiSpec.<OffsetFetchRequestData, OffsetFetchResponseData>of(ApiMessageType.OFFSET_FETCH, 1, 10)
                    .requires(Operation.DESCRIBE, GROUP, (r, v) -> v < 8 ? r.groupId() : null, ApiContracts::fetchDenied)
                    .checks(Check.of(Operation.DESCRIBE, GROUP), Check.of(Operation.DESCRIBE, TOPIC));

    public static final ApiSpec<OffsetDeleteRequestData, OffsetDeleteResponseData> OFFSET_DELETE =
            ApiSpec.<OffsetDeleteRequestData, OffsetDeleteResponseData>of(ApiMessageType.OFFSET_DELETE, 0, 0)
                    .requires(Operation.DELETE, GROUP, (r, v) -> r.groupId(),
                            (r, v, error) -> new OffsetDeleteResponseData().setErrorCode(error))
                    .checks(Check.of(Operation.READ, TOPIC));

    /** Only the groups the principal may Operation.DESCRIBE, or all with DESCRIBE on the cluster. */
    public static final ApiSpec<ListGroupsRequestData, ListGroupsResponseData> LIST_GROUPS =
            ApiSpec.<ListGroupsRequestData, ListGroupsResponseData>of(ApiMessageType.LIST_GROUPS, 0, 5)
                    .checks(Check.orCluster(Operation.DESCRIBE, GROUP));

    public static final ApiSpec<DescribeGroupsRequestData, DescribeGroupsResponseData> DESCRIBE_GROUPS =
            ApiSpec.<DescribeGroupsRequestData, DescribeGroupsResponseData>of(ApiMessageType.DESCRIBE_GROUPS, 0, 6)
                    .checks(Check.of(Operation.DESCRIBE, GROUP));

    public static final ApiSpec<DeleteGroupsRequestData, DeleteGroupsResponseData> DELETE_GROUPS =
            ApiSpec.<DeleteGroupsRequestData, DeleteGroupsResponseData>of(ApiMessageType.DELETE_GROUPS, 0, 3)
                    .checks(Check.of(Operation.DELETE, GROUP));

    /**
     * READ on the group; DESCRIBE on every subscribed topic name (TOPIC_AUTHORIZATION_FAILED otherwise); a
     * regex subscription resolves only to topics the member may DESCRIBE.
     */
    public static final ApiSpec<ConsumerGroupHeartbeatRequestData, ConsumerGroupHeartbeatResponseData>
            CONSUMER_GROUP_HEARTBEAT = ApiSpec.<ConsumerGroupHeartbeatRequestData, ConsumerGroupHeartbeatResponseData>of(
                    ApiMessageType.CONSUMER_GROUP_HEARTBEAT, 0, 1)
                    .requires(Operation.READ, GROUP, (r, v) -> r.groupId(), (r, v, error) ->
                            new ConsumerGroupHeartbeatResponseData().setErrorCode(error).setErrorMessage(GROUP_DENIED))
                    .checks(Check.of(Operation.DESCRIBE, TOPIC));

    /** DESCRIBE on each group, then on every topic its members use (TOPIC_AUTHORIZATION_FAILED for the group). */
    public static final ApiSpec<ConsumerGroupDescribeRequestData, ConsumerGroupDescribeResponseData>
            CONSUMER_GROUP_DESCRIBE = ApiSpec.<ConsumerGroupDescribeRequestData, ConsumerGroupDescribeResponseData>of(
                    ApiMessageType.CONSUMER_GROUP_DESCRIBE, 0, 1)
                    .checks(Check.of(Operation.DESCRIBE, GROUP), Check.of(Operation.DESCRIBE, TOPIC));

    // --- transactions ---

    /**
     * v0-3 (clients): WRITE on the transactional id (TRANSACTIONAL_ID_AUTHORIZATION_FAILED on every partition)
     * and WRITE on each topic; v4-5 (brokers' batched, verify-only form): CLUSTER_ACTION on the cluster, else the
     * top-level CLUSTER_AUTHORIZATION_FAILED, as Kafka.
     */
    public static final ApiSpec<AddPartitionsToTxnRequestData, AddPartitionsToTxnResponseData> ADD_PARTITIONS_TO_TXN =
            ApiSpec.<AddPartitionsToTxnRequestData, AddPartitionsToTxnResponseData>of(ApiMessageType.ADD_PARTITIONS_TO_TXN, 0, 5)
                    .requires(Operation.CLUSTER_ACTION, CLUSTER, (r, v) -> v >= 4 ? Action.CLUSTER_NAME : null,
                            (r, v, error) -> new AddPartitionsToTxnResponseData().setErrorCode(error))
                    .checks(Check.of(Operation.WRITE, TRANSACTIONAL_ID), Check.of(Operation.WRITE, TOPIC));

    /** WRITE on the transactional id, then READ on the group (the error alone in both cases). */
    public static final ApiSpec<AddOffsetsToTxnRequestData, AddOffsetsToTxnResponseData> ADD_OFFSETS_TO_TXN =
            ApiSpec.<AddOffsetsToTxnRequestData, AddOffsetsToTxnResponseData>of(ApiMessageType.ADD_OFFSETS_TO_TXN, 0, 4)
                    .requires(Operation.WRITE, TRANSACTIONAL_ID, (r, v) -> r.transactionalId(),
                            (r, v, error) -> new AddOffsetsToTxnResponseData().setErrorCode(error))
                    .requires(Operation.READ, GROUP, (r, v) -> r.groupId(),
                            (r, v, error) -> new AddOffsetsToTxnResponseData().setErrorCode(error));

    /** WRITE on the transactional id, READ on the group (the error on every partition), then READ on each topic. */
    public static final ApiSpec<TxnOffsetCommitRequestData, TxnOffsetCommitResponseData> TXN_OFFSET_COMMIT =
            ApiSpec.<TxnOffsetCommitRequestData, TxnOffsetCommitResponseData>of(ApiMessageType.TXN_OFFSET_COMMIT, 0, 6)
                    .requires(Operation.WRITE, TRANSACTIONAL_ID, (r, v) -> r.transactionalId(), ApiContracts::txnCommitDenied)
                    .requires(Operation.READ, GROUP, (r, v) -> r.groupId(), ApiContracts::txnCommitDenied)
                    .checks(Check.of(Operation.READ, TOPIC));

    /** WRITE on the transactional id. */
    public static final ApiSpec<EndTxnRequestData, EndTxnResponseData> END_TXN =
            ApiSpec.<EndTxnRequestData, EndTxnResponseData>of(ApiMessageType.END_TXN, 0, 5)
                    .requires(Operation.WRITE, TRANSACTIONAL_ID, (r, v) -> r.transactionalId(),
                            (r, v, error) -> new EndTxnResponseData().setErrorCode(error));

    /**
     * Sent by transaction coordinators: ALTER or CLUSTER_ACTION on the cluster (the handler asks both, as Kafka),
     * else CLUSTER_AUTHORIZATION_FAILED on every partition. v0 was removed in Kafka 4.0.
     */
    public static final ApiSpec<WriteTxnMarkersRequestData, WriteTxnMarkersResponseData> WRITE_TXN_MARKERS =
            ApiSpec.<WriteTxnMarkersRequestData, WriteTxnMarkersResponseData>of(ApiMessageType.WRITE_TXN_MARKERS, 1, 2)
                    .checks(Check.of(Operation.ALTER, CLUSTER), Check.of(Operation.CLUSTER_ACTION, CLUSTER));

    /** DESCRIBE on each transactional id (TRANSACTIONAL_ID_AUTHORIZATION_FAILED); topics not DESCRIBE-able are left out. */
    public static final ApiSpec<DescribeTransactionsRequestData, DescribeTransactionsResponseData> DESCRIBE_TRANSACTIONS =
            ApiSpec.<DescribeTransactionsRequestData, DescribeTransactionsResponseData>of(
                    ApiMessageType.DESCRIBE_TRANSACTIONS, 0, 0)
                    .checks(Check.of(Operation.DESCRIBE, TRANSACTIONAL_ID), Check.of(Operation.DESCRIBE, TOPIC));

    /** Only the transactional ids the principal may DESCRIBE. */
    public static final ApiSpec<ListTransactionsRequestData, ListTransactionsResponseData> LIST_TRANSACTIONS =
            ApiSpec.<ListTransactionsRequestData, ListTransactionsResponseData>of(ApiMessageType.LIST_TRANSACTIONS, 0, 2)
                    .checks(Check.of(Operation.DESCRIBE, TRANSACTIONAL_ID));

    /** READ on each topic (TOPIC_AUTHORIZATION_FAILED on its partitions). */
    public static final ApiSpec<DescribeProducersRequestData, DescribeProducersResponseData> DESCRIBE_PRODUCERS =
            ApiSpec.<DescribeProducersRequestData, DescribeProducersResponseData>of(ApiMessageType.DESCRIBE_PRODUCERS, 0, 0)
                    .checks(Check.of(Operation.READ, TOPIC));

    private static DescribeUserScramCredentialsResponseData describeScramDenied(
            DescribeUserScramCredentialsRequestData request, short version, short error) {
        List<DescribeUserScramCredentialsResponseData.DescribeUserScramCredentialsResult> results = new ArrayList<>();
        if (request.users() != null) {
            for (DescribeUserScramCredentialsRequestData.UserName u : request.users()) {
                results.add(new DescribeUserScramCredentialsResponseData.DescribeUserScramCredentialsResult()
                        .setUser(u.name()).setErrorCode(error).setErrorMessage(null).setCredentialInfos(new ArrayList<>()));
            }
        }
        return new DescribeUserScramCredentialsResponseData().setErrorCode(error).setErrorMessage(null).setResults(results);
    }

    private static AlterUserScramCredentialsResponseData alterScramDenied(AlterUserScramCredentialsRequestData request,
                                                                          short version, short error) {
        TreeSet<String> users = new TreeSet<>();
        request.deletions().forEach(d -> users.add(d.name()));
        request.upsertions().forEach(u -> users.add(u.name()));
        List<AlterUserScramCredentialsResponseData.AlterUserScramCredentialsResult> results = new ArrayList<>();
        for (String user : users) {
            results.add(new AlterUserScramCredentialsResponseData.AlterUserScramCredentialsResult().setUser(user)
                    .setErrorCode(error).setErrorMessage(null));
        }
        return new AlterUserScramCredentialsResponseData().setResults(results);
    }

    /** Kafka's {@code TxnOffsetCommitRequest.getErrorResponse}: the error on every partition asked (by id from v6). */
    private static TxnOffsetCommitResponseData txnCommitDenied(TxnOffsetCommitRequestData request, short version,
                                                               short error) {
        List<TxnOffsetCommitResponseData.TxnOffsetCommitResponseTopic> topics = new ArrayList<>();
        for (TxnOffsetCommitRequestData.TxnOffsetCommitRequestTopic t : request.topics()) {
            List<TxnOffsetCommitResponseData.TxnOffsetCommitResponsePartition> partitions = new ArrayList<>();
            for (TxnOffsetCommitRequestData.TxnOffsetCommitRequestPartition p : t.partitions()) {
                partitions.add(new TxnOffsetCommitResponseData.TxnOffsetCommitResponsePartition()
                        .setPartitionIndex(p.partitionIndex()).setErrorCode(error));
            }
            topics.add(new TxnOffsetCommitResponseData.TxnOffsetCommitResponseTopic().setName(t.name())
                    .setTopicId(t.topicId()).setPartitions(partitions));
        }
        return new TxnOffsetCommitResponseData().setTopics(topics);
    }

    /** Kafka's {@code OffsetCommitRequest.getErrorResponse}: the error on every partition asked (by id from v10). */
    private static OffsetCommitResponseData commitDenied(OffsetCommitRequestData request, short version, short error) {
        List<OffsetCommitResponseData.OffsetCommitResponseTopic> topics = new ArrayList<>();
        for (OffsetCommitRequestData.OffsetCommitRequestTopic t : request.topics()) {
            List<OffsetCommitResponseData.OffsetCommitResponsePartition> partitions = new ArrayList<>();
            for (OffsetCommitRequestData.OffsetCommitRequestPartition p : t.partitions()) {
                partitions.add(new OffsetCommitResponseData.OffsetCommitResponsePartition()
                        .setPartitionIndex(p.partitionIndex()).setErrorCode(error));
            }
            topics.add(new OffsetCommitResponseData.OffsetCommitResponseTopic().setName(t.name())
                    .setTopicId(t.topicId()).setPartitions(partitions));
        }
        return new OffsetCommitResponseData().setTopics(topics);
    }

    /**
     * Kafka's {@code OffsetFetchRequest.getErrorResponse} for one group (v1-7): the error at top level and
     * no partitions from v2; on every partition asked in v1, which has no top-level error.
     */
    private static OffsetFetchResponseData fetchDenied(OffsetFetchRequestData request, short version, short error) {
        List<OffsetFetchResponseData.OffsetFetchResponseTopic> topics = new ArrayList<>();
        if (version < 2 && request.topics() != null) {
            for (OffsetFetchRequestData.OffsetFetchRequestTopic t : request.topics()) {
                List<OffsetFetchResponseData.OffsetFetchResponsePartition> partitions = new ArrayList<>();
                for (int p : t.partitionIndexes()) {
                    partitions.add(new OffsetFetchResponseData.OffsetFetchResponsePartition().setPartitionIndex(p)
                            .setCommittedOffset(-1).setCommittedLeaderEpoch(-1).setMetadata("").setErrorCode(error));
                }
                topics.add(new OffsetFetchResponseData.OffsetFetchResponseTopic().setName(t.name()).setPartitions(partitions));
            }
        }
        OffsetFetchResponseData response = new OffsetFetchResponseData().setTopics(topics);
        return version >= 2 ? response.setErrorCode(error) : response;
    }
}
