package io.kaas.broker.it.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.broker.it.TestBroker;
import io.kaas.broker.network.RawClient;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.ConsumerGroupDescribeRequestData;
import io.kaas.wire.message.ConsumerGroupDescribeResponseData;
import io.kaas.wire.message.ConsumerGroupHeartbeatRequestData;
import io.kaas.wire.message.ConsumerGroupHeartbeatResponseData;
import io.kaas.wire.message.DeleteGroupsRequestData;
import io.kaas.wire.message.DeleteGroupsResponseData;
import io.kaas.wire.message.DescribeGroupsRequestData;
import io.kaas.wire.message.DescribeGroupsResponseData;
import io.kaas.wire.message.FindCoordinatorRequestData;
import io.kaas.wire.message.FindCoordinatorResponseData;
import io.kaas.wire.message.HeartbeatRequestData;
import io.kaas.wire.message.HeartbeatResponseData;
import io.kaas.wire.message.LeaveGroupRequestData;
import io.kaas.wire.message.LeaveGroupResponseData;
import io.kaas.wire.message.OffsetCommitRequestData;
import io.kaas.wire.message.OffsetCommitResponseData;
import io.kaas.wire.message.OffsetDeleteRequestData;
import io.kaas.wire.message.OffsetDeleteResponseData;
import io.kaas.wire.message.OffsetFetchRequestData;
import io.kaas.wire.message.OffsetFetchResponseData;
import io.kaas.wire.message.SyncGroupRequestData;
import io.kaas.wire.message.SyncGroupResponseData;
import io.kaas.wire.protocol.ApiMessage;
import io.kaas.wire.protocol.Errors;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The group APIs under {@code authorizer=acl}, driven by the real Java clients (and raw requests for
 * the APIs a client cannot be made to send alone): Kafka's GROUP_AUTHORIZATION_FAILED (30) and
 * TOPIC_AUTHORIZATION_FAILED (29) for what the rules do not allow, and authorized-operations fields
 * computed from the rules.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class GroupAclIT {
    private static final String TOPICS_AND_CLUSTER = """
            allow * ALL topic:*
            allow * CREATE cluster
            """;

    @TempDir
    Path dir;

    @Test
    void aConsumerWhoseGroupIsNotDescribableCannotFindItsCoordinator() throws Exception {
        try (TestBroker broker = start(TOPICS_AND_CLUSTER)) {
            createTopic(broker, "t");
            try (KafkaConsumer<String, String> consumer = consumer(broker, "g", "classic")) {
                consumer.subscribe(List.of("t"));
                assertThatThrownBy(() -> pollFor(consumer, Duration.ofSeconds(20)))
                        .isInstanceOf(GroupAuthorizationException.class)
                        .satisfies(e -> assertThat(((GroupAuthorizationException) e).groupId()).isEqualTo("g"));
            }
        }
    }

    @Test
    void aClassicConsumerWithoutReadOnItsGroupCannotJoinIt() throws Exception {
        try (TestBroker broker = start(TOPICS_AND_CLUSTER + "allow * DESCRIBE group:g\n")) {
            createTopic(broker, "t");
            try (KafkaConsumer<String, String> consumer = consumer(broker, "g", "classic")) {
                consumer.subscribe(List.of("t"));
                assertThatThrownBy(() -> pollFor(consumer, Duration.ofSeconds(20)))
                        .isInstanceOf(GroupAuthorizationException.class);
            }
        }
    }

    @Test
    void aConsumerProtocolMemberWithoutReadOnItsGroupIsRefusedItsHeartbeat() throws Exception {
        try (TestBroker broker = start(TOPICS_AND_CLUSTER + "allow * DESCRIBE group:g\n")) {
            createTopic(broker, "t");
            try (KafkaConsumer<String, String> consumer = consumer(broker, "g", "consumer")) {
                consumer.subscribe(List.of("t"));
                assertThatThrownBy(() -> pollFor(consumer, Duration.ofSeconds(20)))
                        .isInstanceOf(GroupAuthorizationException.class);
            }
        }
    }

    @Test
    void aConsumerAllowedToReadItsGroupAndTopicConsumesAndCommits() throws Exception {
        try (TestBroker broker = start(TOPICS_AND_CLUSTER + "allow * READ group:g\n")) {
            createTopic(broker, "t");
            try (KafkaConsumer<String, String> consumer = consumer(broker, "g", "classic")) {
                TopicPartition tp = new TopicPartition("t", 0);
                consumer.assign(List.of(tp));
                consumer.commitSync(Map.of(tp, new OffsetAndMetadata(0)));
                assertThat(consumer.committed(Set.of(tp)).get(tp).offset()).isZero();
            }
        }
    }

    @Test
    void commitsNeedReadOnTheGroupAndOnTheTopic() throws Exception {
        try (TestBroker broker = start("""
                allow * CREATE cluster
                allow * ALL topic:open
                allow * DESCRIBE topic:closed
                allow * READ group:reader
                allow * DESCRIBE group:watcher
                """)) {
            createTopic(broker, "open");
            createTopic(broker, "closed");
            try (KafkaConsumer<String, String> watcher = consumer(broker, "watcher", "classic")) {
                TopicPartition tp = new TopicPartition("open", 0);
                watcher.assign(List.of(tp));
                assertThatThrownBy(() -> watcher.commitSync(Map.of(tp, new OffsetAndMetadata(0)), Duration.ofSeconds(20)))
                        .isInstanceOf(GroupAuthorizationException.class);
            }
            try (KafkaConsumer<String, String> reader = consumer(broker, "reader", "classic")) {
                TopicPartition closed = new TopicPartition("closed", 0);
                reader.assign(List.of(closed));
                assertThatThrownBy(() -> reader.commitSync(Map.of(closed, new OffsetAndMetadata(0)), Duration.ofSeconds(20)))
                        .isInstanceOf(TopicAuthorizationException.class)
                        .satisfies(e -> assertThat(((TopicAuthorizationException) e).unauthorizedTopics()).contains("closed"));
            }
        }
    }

    @Test
    void adminGroupCallsNeedDescribeOrDeleteOnTheGroup() throws Exception {
        try (TestBroker broker = start(TOPICS_AND_CLUSTER + """
                allow * READ group:mine
                allow * DESCRIBE group:seen
                """)) {
            createTopic(broker, "t");
            commit(broker, "mine", "t");
            try (Admin admin = admin(broker)) {
                assertGroupDenied(() -> admin.listConsumerGroupOffsets("other").partitionsToOffsetAndMetadata()
                        .get(20, TimeUnit.SECONDS));
                assertGroupDenied(() -> admin.describeConsumerGroups(List.of("other")).all().get(20, TimeUnit.SECONDS));
                assertGroupDenied(() -> admin.deleteConsumerGroups(List.of("seen")).all().get(20, TimeUnit.SECONDS));
                assertGroupDenied(() -> admin.deleteConsumerGroupOffsets("mine", Set.of(new TopicPartition("t", 0)))
                        .all().get(20, TimeUnit.SECONDS));
                assertThat(admin.listConsumerGroupOffsets("mine").partitionsToOffsetAndMetadata().get(20, TimeUnit.SECONDS))
                        .containsKey(new TopicPartition("t", 0));
            }
        }
    }

    @Test
    void listingGroupsShowsOnlyTheDescribableOnesUnlessTheClusterIsDescribable() throws Exception {
        try (TestBroker broker = start(TOPICS_AND_CLUSTER + "allow * READ group:*\n")) {
            createTopic(broker, "t");
            commit(broker, "visible-1", "t");
            commit(broker, "hidden-1", "t");
        }
        String rules = TOPICS_AND_CLUSTER + "allow * READ group:visible-*\n";
        try (TestBroker broker = start(rules); Admin admin = admin(broker)) {
            assertThat(admin.listGroups().all().get(20, TimeUnit.SECONDS)).extracting(GroupListing::groupId)
                    .containsExactly("visible-1");
        }
        try (TestBroker broker = start(rules + "allow * DESCRIBE cluster\n"); Admin admin = admin(broker)) {
            assertThat(admin.listGroups().all().get(20, TimeUnit.SECONDS)).extracting(GroupListing::groupId)
                    .containsExactlyInAnyOrder("visible-1", "hidden-1");
        }
    }

    @Test
    void authorizedOperationsAreTheOnesTheRulesAllow() throws Exception {
        try (TestBroker broker = start("""
                allow * CREATE cluster
                allow * DESCRIBE cluster
                allow * READ topic:t
                allow * READ group:g
                """)) {
            createTopic(broker, "t");
            commit(broker, "g", "t");
            try (Admin admin = admin(broker)) {
                assertThat(admin.describeCluster(new DescribeClusterOptions().includeAuthorizedOperations(true))
                        .authorizedOperations().get(20, TimeUnit.SECONDS))
                        .containsExactlyInAnyOrder(AclOperation.CREATE, AclOperation.DESCRIBE);
                assertThat(admin.describeTopics(List.of("t"), new DescribeTopicsOptions().includeAuthorizedOperations(true))
                        .allTopicNames().get(20, TimeUnit.SECONDS).get("t").authorizedOperations())
                        .containsExactlyInAnyOrder(AclOperation.READ, AclOperation.DESCRIBE);
                ConsumerGroupDescription g = admin.describeConsumerGroups(List.of("g"),
                        new DescribeConsumerGroupsOptions().includeAuthorizedOperations(true)).all()
                        .get(20, TimeUnit.SECONDS).get("g");
                assertThat(g.authorizedOperations()).containsExactlyInAnyOrder(AclOperation.READ, AclOperation.DESCRIBE);
                assertThat(admin.describeConsumerGroups(List.of("g")).all().get(20, TimeUnit.SECONDS).get("g")
                        .authorizedOperations()).isNull();
            }
        }
    }

    @Test
    void clusterAuthorizedOperationsAreEmptyWithoutDescribeOnTheCluster() throws Exception {
        try (TestBroker broker = start("allow * CREATE cluster\nallow * IDEMPOTENT_WRITE cluster\n")) {
            try (Admin admin = admin(broker)) {
                assertThat(admin.describeCluster(new DescribeClusterOptions().includeAuthorizedOperations(true))
                        .authorizedOperations().get(20, TimeUnit.SECONDS)).isEmpty();
                assertThat(admin.describeCluster().authorizedOperations().get(20, TimeUnit.SECONDS)).isNull();
            }
        }
    }

    @Test
    void eachGroupApiAnswersGroupAuthorizationFailedForAGroupItMayNotUse() throws Exception {
        try (TestBroker broker = start(TOPICS_AND_CLUSTER + "allow * DESCRIBE group:seen\n");
             RawClient raw = new RawClient(broker.port())) {
            findCoordinator(raw, "seen");
            HeartbeatResponseData heartbeat = call(raw, ApiMessageType.HEARTBEAT, 4,
                    new HeartbeatRequestData().setGroupId("seen").setMemberId("m").setGenerationId(1));
            assertThat(heartbeat.errorCode()).isEqualTo(Errors.GROUP_AUTHORIZATION_FAILED);
            SyncGroupResponseData sync = call(raw, ApiMessageType.SYNC_GROUP, 5,
                    new SyncGroupRequestData().setGroupId("seen").setMemberId("m").setGenerationId(1)
                            .setProtocolType("consumer").setProtocolName("range"));
            assertThat(sync.errorCode()).isEqualTo(Errors.GROUP_AUTHORIZATION_FAILED);
            LeaveGroupResponseData leave = call(raw, ApiMessageType.LEAVE_GROUP, 5, new LeaveGroupRequestData()
                    .setGroupId("seen").setMembers(List.of(new LeaveGroupRequestData.MemberIdentity().setMemberId("m"))));
            assertThat(leave.errorCode()).isEqualTo(Errors.GROUP_AUTHORIZATION_FAILED);
            OffsetCommitResponseData commit = call(raw, ApiMessageType.OFFSET_COMMIT, 9, new OffsetCommitRequestData()
                    .setGroupId("seen").setMemberId("").setGenerationIdOrMemberEpoch(-1)
                    .setTopics(List.of(new OffsetCommitRequestData.OffsetCommitRequestTopic().setName("t")
                            .setPartitions(List.of(new OffsetCommitRequestData.OffsetCommitRequestPartition()
                                    .setPartitionIndex(0).setCommittedOffset(1))))));
            assertThat(commit.topics().get(0).partitions().get(0).errorCode()).isEqualTo(Errors.GROUP_AUTHORIZATION_FAILED);
            OffsetFetchResponseData fetchV7 = call(raw, ApiMessageType.OFFSET_FETCH, 7,
                    new OffsetFetchRequestData().setGroupId("other").setTopics(null));
            assertThat(fetchV7.errorCode()).isEqualTo(Errors.GROUP_AUTHORIZATION_FAILED);
            OffsetFetchResponseData fetchV8 = call(raw, ApiMessageType.OFFSET_FETCH, 8, new OffsetFetchRequestData()
                    .setGroups(List.of(new OffsetFetchRequestData.OffsetFetchRequestGroup().setGroupId("other").setTopics(null),
                            new OffsetFetchRequestData.OffsetFetchRequestGroup().setGroupId("seen").setTopics(null))));
            assertThat(fetchV8.groups()).extracting(OffsetFetchResponseData.OffsetFetchResponseGroup::errorCode)
                    .containsExactly(Errors.GROUP_AUTHORIZATION_FAILED, Errors.NONE);
            OffsetDeleteResponseData delete = call(raw, ApiMessageType.OFFSET_DELETE, 0, new OffsetDeleteRequestData()
                    .setGroupId("seen").setTopics(List.of()));
            assertThat(delete.errorCode()).isEqualTo(Errors.GROUP_AUTHORIZATION_FAILED);
            DeleteGroupsResponseData deleteGroups = call(raw, ApiMessageType.DELETE_GROUPS, 2,
                    new DeleteGroupsRequestData().setGroupsNames(List.of("seen")));
            assertThat(deleteGroups.results().get(0).errorCode()).isEqualTo(Errors.GROUP_AUTHORIZATION_FAILED);
            DescribeGroupsResponseData describe = call(raw, ApiMessageType.DESCRIBE_GROUPS, 5,
                    new DescribeGroupsRequestData().setGroups(List.of("other", "seen")));
            assertThat(describe.groups()).extracting(DescribeGroupsResponseData.DescribedGroup::errorCode)
                    .containsExactly(Errors.GROUP_AUTHORIZATION_FAILED, Errors.NONE);
        }
    }

    @Test
    void offsetFetchAnswersTopicAuthorizationFailedForTopicsAskedAndLeavesOutOthersWhenAllAreAsked() throws Exception {
        try (TestBroker broker = start(TOPICS_AND_CLUSTER + "allow * READ group:g\n")) {
            createTopic(broker, "open");
            createTopic(broker, "closed");
            commit(broker, "g", "open");
            commit(broker, "g", "closed");
        }
        try (TestBroker broker = start("""
                allow * ALL topic:open
                allow * READ group:g
                """); RawClient raw = new RawClient(broker.port())) {
            OffsetFetchResponseData asked = call(raw, ApiMessageType.OFFSET_FETCH, 7, new OffsetFetchRequestData()
                    .setGroupId("g").setTopics(List.of(
                            new OffsetFetchRequestData.OffsetFetchRequestTopic().setName("open").setPartitionIndexes(List.of(0)),
                            new OffsetFetchRequestData.OffsetFetchRequestTopic().setName("closed").setPartitionIndexes(List.of(0)))));
            assertThat(asked.errorCode()).isEqualTo(Errors.NONE);
            assertThat(asked.topics()).extracting(OffsetFetchResponseData.OffsetFetchResponseTopic::name)
                    .containsExactly("open", "closed");
            assertThat(asked.topics().get(0).partitions().get(0).errorCode()).isEqualTo(Errors.NONE);
            assertThat(asked.topics().get(0).partitions().get(0).committedOffset()).isZero();
            assertThat(asked.topics().get(1).partitions().get(0).errorCode()).isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED);
            assertThat(asked.topics().get(1).partitions().get(0).committedOffset()).isEqualTo(-1);
            OffsetFetchResponseData all = call(raw, ApiMessageType.OFFSET_FETCH, 7,
                    new OffsetFetchRequestData().setGroupId("g").setTopics(null));
            assertThat(all.topics()).extracting(OffsetFetchResponseData.OffsetFetchResponseTopic::name).containsExactly("open");
            OffsetFetchResponseData allV8 = call(raw, ApiMessageType.OFFSET_FETCH, 8, new OffsetFetchRequestData()
                    .setGroups(List.of(new OffsetFetchRequestData.OffsetFetchRequestGroup().setGroupId("g").setTopics(null))));
            assertThat(allV8.groups().get(0).topics()).extracting(OffsetFetchResponseData.OffsetFetchResponseTopics::name)
                    .containsExactly("open");
        }
    }

    @Test
    void aConsumerProtocolMemberMaySubscribeOnlyToTopicsItMayDescribe() throws Exception {
        try (TestBroker broker = start("""
                allow * CREATE cluster
                allow * ALL topic:open
                allow * READ group:g
                """); RawClient raw = new RawClient(broker.port())) {
            createTopic(broker, "open");
            findCoordinator(raw, "g");
            ConsumerGroupHeartbeatResponseData denied = call(raw, ApiMessageType.CONSUMER_GROUP_HEARTBEAT, 1,
                    heartbeat("g", List.of("open", "closed")));
            assertThat(denied.errorCode()).isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED);
            ConsumerGroupHeartbeatResponseData joined = call(raw, ApiMessageType.CONSUMER_GROUP_HEARTBEAT, 1,
                    heartbeat("g", List.of("open")));
            assertThat(joined.errorCode()).isEqualTo(Errors.NONE);
            ConsumerGroupHeartbeatResponseData otherGroup = call(raw, ApiMessageType.CONSUMER_GROUP_HEARTBEAT, 1,
                    heartbeat("h", List.of("open")));
            assertThat(otherGroup.errorCode()).isEqualTo(Errors.GROUP_AUTHORIZATION_FAILED);
        }
    }

    @Test
    void aConsumerProtocolMemberSubscribedByRegexIsAssignedOnlyTopicsItMayDescribe() throws Exception {
        try (TestBroker broker = start("""
                allow * CREATE cluster
                allow * ALL topic:orders
                allow * READ group:g
                """); RawClient raw = new RawClient(broker.port())) {
            createTopic(broker, "orders");
            createTopic(broker, "orders-hidden");
            findCoordinator(raw, "g");
            ConsumerGroupHeartbeatResponseData joined = call(raw, ApiMessageType.CONSUMER_GROUP_HEARTBEAT, 1,
                    new ConsumerGroupHeartbeatRequestData().setGroupId("g").setMemberId(java.util.UUID.randomUUID().toString())
                            .setMemberEpoch(0).setRebalanceTimeoutMs(30_000).setSubscribedTopicRegex("orders.*")
                            .setTopicPartitions(List.of()));
            assertThat(joined.errorCode()).isEqualTo(Errors.NONE);
            // as in Kafka 4.4, the regex is resolved after the join and its topics come at a later heartbeat
            ConsumerGroupHeartbeatResponseData[] last = {joined};
            org.awaitility.Awaitility.await("the regex's topics").atMost(java.time.Duration.ofSeconds(10))
                    .pollInterval(java.time.Duration.ofMillis(200)).until(() -> {
                        last[0] = call(raw, ApiMessageType.CONSUMER_GROUP_HEARTBEAT, 1,
                                new ConsumerGroupHeartbeatRequestData().setGroupId("g").setMemberId(joined.memberId())
                                        .setMemberEpoch(last[0].memberEpoch()));
                        assertThat(last[0].errorCode()).isEqualTo(Errors.NONE);
                        return last[0].assignment() != null && !last[0].assignment().topicPartitions().isEmpty();
                    });
            assertThat(last[0].assignment().topicPartitions()).hasSize(1);
            ConsumerGroupDescribeResponseData described = call(raw, ApiMessageType.CONSUMER_GROUP_DESCRIBE, 1,
                    new ConsumerGroupDescribeRequestData().setGroupIds(List.of("g")));
            ConsumerGroupDescribeResponseData.DescribedGroup group = described.groups().get(0);
            assertThat(group.errorCode()).as("no topic it may not describe is in its assignment").isEqualTo(Errors.NONE);
            assertThat(group.members().get(0).targetAssignment().topicPartitions())
                    .extracting(ConsumerGroupDescribeResponseData.TopicPartitions::topicName).containsExactly("orders");
        }
    }

    @Test
    void groupConfigsNeedDescribeConfigsOrAlterConfigsOnTheGroupAndListConfigResourcesOnTheCluster() throws Exception {
        try (TestBroker broker = start(TOPICS_AND_CLUSTER + """
                allow * DESCRIBE_CONFIGS group:seen
                allow * ALTER_CONFIGS group:mine
                """); Admin admin = admin(broker)) {
            org.apache.kafka.common.config.ConfigResource mine = new org.apache.kafka.common.config.ConfigResource(
                    org.apache.kafka.common.config.ConfigResource.Type.GROUP, "mine");
            org.apache.kafka.common.config.ConfigResource seen = new org.apache.kafka.common.config.ConfigResource(
                    org.apache.kafka.common.config.ConfigResource.Type.GROUP, "seen");
            org.apache.kafka.clients.admin.AlterConfigOp op = new org.apache.kafka.clients.admin.AlterConfigOp(
                    new org.apache.kafka.clients.admin.ConfigEntry("consumer.heartbeat.interval.ms", "6000"),
                    org.apache.kafka.clients.admin.AlterConfigOp.OpType.SET);
            admin.incrementalAlterConfigs(Map.of(mine, List.of(op))).all().get(20, TimeUnit.SECONDS);
            assertGroupDenied(() -> admin.incrementalAlterConfigs(Map.of(seen, List.of(op))).all().get(20, TimeUnit.SECONDS));
            assertThat(admin.describeConfigs(List.of(mine)).all().get(20, TimeUnit.SECONDS).get(mine)
                    .get("consumer.heartbeat.interval.ms").value()).as("ALTER_CONFIGS implies DESCRIBE_CONFIGS").isEqualTo("6000");
            admin.describeConfigs(List.of(seen)).all().get(20, TimeUnit.SECONDS);
            assertGroupDenied(() -> admin.describeConfigs(List.of(new org.apache.kafka.common.config.ConfigResource(
                    org.apache.kafka.common.config.ConfigResource.Type.GROUP, "other"))).all().get(20, TimeUnit.SECONDS));
            assertThatThrownBy(() -> admin.listConfigResources().all().get(20, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(org.apache.kafka.common.errors.ClusterAuthorizationException.class);
        }
    }

    private static ConsumerGroupHeartbeatRequestData heartbeat(String group, List<String> topics) {
        return new ConsumerGroupHeartbeatRequestData().setGroupId(group).setMemberId(java.util.UUID.randomUUID().toString())
                .setMemberEpoch(0).setRebalanceTimeoutMs(30_000).setSubscribedTopicNames(topics).setTopicPartitions(List.of());
    }

    private static int correlation = 1;

    @SuppressWarnings("unchecked")
    private static <T extends ApiMessage> T call(RawClient raw, ApiMessageType api, int version, ApiMessage body)
            throws IOException {
        int id = correlation++;
        raw.send(api, (short) version, id, body);
        RawClient.Response<ApiMessage> response = raw.read(api, (short) version);
        assertThat(response.correlationId()).isEqualTo(id);
        return (T) response.body();
    }

    private static void assertGroupDenied(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(GroupAuthorizationException.class);
    }

    /** Commits offset 0 of {@code topic}-0 for {@code group} with a consumer, so that the group exists. */
    private static void commit(TestBroker broker, String group, String topic) {
        try (KafkaConsumer<String, String> consumer = consumer(broker, group, "classic")) {
            TopicPartition tp = new TopicPartition(topic, 0);
            consumer.assign(List.of(tp));
            consumer.commitSync(Map.of(tp, new OffsetAndMetadata(0)), Duration.ofSeconds(20));
        }
    }

    /** A broker under {@code authorizer=acl} with {@code rules}, on this test's data directory (kept across starts). */
    /** FindCoordinator for {@code group}, as a client asks first: it creates {@code __consumer_offsets}. */
    private static void findCoordinator(RawClient raw, String group) throws IOException {
        FindCoordinatorResponseData found = call(raw, ApiMessageType.FIND_COORDINATOR, 4,
                new FindCoordinatorRequestData().setKeyType((byte) 0).setCoordinatorKeys(List.of(group)));
        assertThat(found.coordinators().get(0).errorCode()).isEqualTo(Errors.NONE);
    }

    private TestBroker start(String rules) throws IOException {
        return TestBroker.builder(dir).pluginsDir(dir.resolve("no-plugins")).acl(rules).start();
    }

    private static void createTopic(TestBroker broker, String name) throws Exception {
        broker.createTopic(name, 1);
    }

    private static Admin admin(TestBroker broker) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 20_000));
    }

    private static KafkaConsumer<String, String> consumer(TestBroker broker, String group, String protocol) {
        return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap(),
                ConsumerConfig.GROUP_ID_CONFIG, group,
                ConsumerConfig.GROUP_PROTOCOL_CONFIG, protocol,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                new StringDeserializer(), new StringDeserializer());
    }

    /** Polls for {@code time}; what the consumer throws meanwhile propagates. */
    private static void pollFor(KafkaConsumer<String, String> consumer, Duration time) {
        for (long end = System.nanoTime() + time.toNanos(); System.nanoTime() < end; ) {
            consumer.poll(Duration.ofMillis(200));
        }
    }
}
