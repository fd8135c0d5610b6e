package io.kaas.broker.handler.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.auth.Action;
import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.ClusterStateStoreProvider;
import io.kaas.api.cluster.ClusterStoreContext;
import io.kaas.api.cluster.TopicRecord;
import io.kaas.api.plugin.PluginConfig;
import io.kaas.broker.auth.TestGates;
import io.kaas.broker.request.ApiContracts;
import io.kaas.broker.request.HandlerRegistry;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.request.ServedApi;
import io.kaas.coordinator.CoordinatorTimer;
import io.kaas.coordinator.group.GroupCoordinator;
import io.kaas.coordinator.group.GroupCoordinatorConfig;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.ConsumerGroupDescribeRequestData;
import io.kaas.wire.message.ConsumerGroupDescribeResponseData;
import io.kaas.wire.message.ConsumerGroupDescribeResponseData.DescribedGroup;
import io.kaas.wire.message.ConsumerGroupHeartbeatRequestData;
import io.kaas.wire.message.ConsumerGroupHeartbeatResponseData;
import io.kaas.wire.protocol.Errors;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import io.kaas.api.storage.EngineContext;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.StorageEngine;
import io.kaas.api.storage.StorageEngineProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ConsumerGroupDescribe through the request pipeline with an authorizer whose rules change while the group
 * lives (as Kafka's ACLs do with CreateAcls/DeleteAcls): a group whose members use a topic the describing
 * client may not DESCRIBE is answered TOPIC_AUTHORIZATION_FAILED, as Kafka's KafkaApis answers it. (With
 * the acl authorizer's fixed rules and the one PLAINTEXT principal no such group can form, so the rules are
 * a test authorizer's.)
 */
class ConsumerGroupDescribeAclTest {
    @TempDir
    Path dir;

    private final AtomicReference<Predicate<Action>> rules = new AtomicReference<>(a -> true);
    private ScheduledExecutorService scheduler;
    private ClusterStateStore store;
    private StorageEngine engine;
    private GroupCoordinator coordinator;
    private HandlerRegistry registry;

    @BeforeEach
    void setUp() throws Exception {
        scheduler = Executors.newSingleThreadScheduledExecutor();
        ClusterStateStoreProvider files = ServiceLoader.load(ClusterStateStoreProvider.class).stream()
                .map(ServiceLoader.Provider::get).filter(p -> p.name().equals("files")).findFirst().orElseThrow();
        store = files.open(new ClusterStoreContext(dir, PluginConfig.empty(), 1));
        store.createTopic(new TopicRecord("open", UUID.randomUUID(), 2, Map.of()));
        store.createTopic(new TopicRecord("secret", UUID.randomUUID(), 1, Map.of()));
        engine = ServiceLoader.load(StorageEngineProvider.class).stream().map(ServiceLoader.Provider::get)
                .filter(p -> p.name().equals("segments")).findFirst().orElseThrow()
                .open(new EngineContext(dir.resolve("data"), PluginConfig.empty(), 1, Clock.systemUTC()));
        coordinator = new GroupCoordinator(store, GroupCoordinatorConfig.defaults(),
                CoordinatorTimer.of(scheduler, Clock.systemUTC()), () -> 1);
        coordinator.start();
        coordinator.onPartitionGained(0, engine.openPartition(new PartitionKey(GroupCoordinator.OFFSETS_TOPIC,
                UUID.randomUUID(), 0), LogConfig.defaults()), 0);
        registry = HandlerRegistry.of(TestGates.allowing(a -> rules.get().test(a)), List.of(
                ServedApi.of(ApiContracts.CONSUMER_GROUP_HEARTBEAT, new ConsumerGroupHeartbeatHandler(coordinator)),
                ServedApi.of(ApiContracts.CONSUMER_GROUP_DESCRIBE, new ConsumerGroupDescribeHandler(coordinator))));
    }

    @AfterEach
    void tearDown() throws Exception {
        coordinator.close();
        engine.close();
        store.close();
        scheduler.shutdownNow();
        scheduler.awaitTermination(5, TimeUnit.SECONDS);
    }

    @Test
    void aGroupUsingATopicTheClientMayNotDescribeIsAnsweredTopicAuthorizationFailed() throws Exception {
        ConsumerGroupHeartbeatResponseData joined = call(ApiMessageType.CONSUMER_GROUP_HEARTBEAT,
                new ConsumerGroupHeartbeatRequestData().setGroupId("g").setMemberId(UUID.randomUUID().toString())
                        .setMemberEpoch(0).setRebalanceTimeoutMs(30_000)
                        .setSubscribedTopicNames(List.of("open", "secret")).setTopicPartitions(List.of()));
        assertThat(joined.errorCode()).isEqualTo(Errors.NONE);

        DescribedGroup allowed = describe("g");
        assertThat(allowed.errorCode()).isEqualTo(Errors.NONE);
        assertThat(allowed.members()).hasSize(1);

        rules.set(a -> !(a.resourceType() == ResourceType.TOPIC && a.resourceName().equals("secret")));
        DescribedGroup denied = describe("g");
        assertThat(denied.groupId()).isEqualTo("g");
        assertThat(denied.errorCode()).isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED);
        assertThat(denied.errorMessage())
                .isEqualTo("The described group uses topics that the client is not authorized to describe.");
        assertThat(denied.members()).isEmpty();

        rules.set(a -> !(a.resourceType() == ResourceType.GROUP && a.operation() == Operation.DESCRIBE));
        assertThat(describe("g").errorCode()).as("the group's own check comes first")
                .isEqualTo(Errors.GROUP_AUTHORIZATION_FAILED);
    }

    @Test
    void aGroupWhoseTopicsAreAllDescribableIsDescribedAndAnUnknownGroupKeepsItsError() throws Exception {
        call(ApiMessageType.CONSUMER_GROUP_HEARTBEAT, new ConsumerGroupHeartbeatRequestData().setGroupId("g")
                .setMemberId(UUID.randomUUID().toString()).setMemberEpoch(0).setRebalanceTimeoutMs(30_000)
                .setSubscribedTopicNames(List.of("open")).setTopicPartitions(List.of()));
        rules.set(a -> !(a.resourceType() == ResourceType.TOPIC && a.resourceName().equals("secret")));
        assertThat(describe("g").errorCode()).isEqualTo(Errors.NONE);
        assertThat(describe("nobody").errorCode()).isEqualTo(Errors.GROUP_ID_NOT_FOUND);
    }

    private DescribedGroup describe(String group) throws Exception {
        ConsumerGroupDescribeResponseData response = call(ApiMessageType.CONSUMER_GROUP_DESCRIBE,
                new ConsumerGroupDescribeRequestData().setGroupIds(List.of(group)));
        assertThat(response.groups()).hasSize(1);
        return response.groups().get(0);
    }

    @SuppressWarnings("unchecked")
    private <T> T call(ApiMessageType api, io.kaas.wire.protocol.ApiMessage body) throws Exception {
        RequestContext context = new RequestContext((short) 1, 1, "test", new InetSocketAddress("127.0.0.1", 1), "PLAINTEXT");
        return (T) registry.handle(api, context, body).get(10, TimeUnit.SECONDS);
    }
}
