package io.kaas.broker.it.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.broker.it.TestBroker;
import io.kaas.broker.network.RawClient;
import io.kaas.wire.message.AlterConfigsRequestData;
import io.kaas.wire.message.AlterConfigsResponseData;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.ConsumerGroupHeartbeatRequestData;
import io.kaas.wire.message.ConsumerGroupHeartbeatResponseData;
import io.kaas.wire.message.FindCoordinatorRequestData;
import io.kaas.wire.message.FindCoordinatorResponseData;
import io.kaas.wire.message.IncrementalAlterConfigsRequestData;
import io.kaas.wire.message.IncrementalAlterConfigsResponseData;
import io.kaas.wire.message.ListConfigResourcesRequestData;
import io.kaas.wire.message.ListConfigResourcesResponseData;
import io.kaas.wire.protocol.ApiMessage;
import io.kaas.wire.protocol.Errors;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.AlterConfigsOptions;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.ListConfigResourcesOptions;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Group configs (ConfigResource.Type.GROUP) with the real Java Admin: set, described with their sources,
 * deleted, validated as Kafka validates them, kept across a restart, listed by ListConfigResources, and
 * honoured by the KIP-848 group coordinator (heartbeat interval and session timeout of the group's members).
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class GroupConfigsIT {
    private static final String SESSION = "consumer.session.timeout.ms";
    private static final String HEARTBEAT = "consumer.heartbeat.interval.ms";
    private static final String ASSIGNMENT_INTERVAL = "consumer.assignment.interval.ms";

    @TempDir
    Path dir;

    /** A broker whose group-config bounds admit short timeouts, so a test sees them act within seconds. */
    private TestBroker start() throws IOException {
        return TestBroker.builder(dir).noInitialRebalanceDelay().config(Map.of(
                "group.consumer.min.session.timeout.ms", "1000", "group.consumer.min.heartbeat.interval.ms", "100",
                "group.consumer.session.timeout.ms", "45000", "group.consumer.heartbeat.interval.ms", "5000",
                "group.consumer.assignment.interval.ms", "500", "group.consumer.max.assignment.interval.ms", "10000"))
                .start();
    }

    private static ConfigResource group(String name) {
        return new ConfigResource(ConfigResource.Type.GROUP, name);
    }

    private static void alter(Admin admin, String group, AlterConfigOp... ops) throws Exception {
        admin.incrementalAlterConfigs(Map.of(group(group), List.of(ops))).all().get(20, TimeUnit.SECONDS);
    }

    private static AlterConfigOp set(String name, String value) {
        return new AlterConfigOp(new ConfigEntry(name, value), AlterConfigOp.OpType.SET);
    }

    private static Config describe(Admin admin, String group) throws Exception {
        return admin.describeConfigs(List.of(group(group)), new DescribeConfigsOptions().includeDocumentation(true)
                .includeSynonyms(true)).all().get(20, TimeUnit.SECONDS).get(group(group));
    }

    @Test
    void adminSetsDescribesAndDeletesGroupConfigs() throws Exception {
        try (TestBroker broker = start(); Admin admin = broker.admin()) {
            Config fresh = describe(admin, "never-seen");
            assertThat(fresh.entries()).extracting(ConfigEntry::name).containsExactlyInAnyOrder(SESSION, HEARTBEAT,
                    ASSIGNMENT_INTERVAL, "share.session.timeout.ms", "share.heartbeat.interval.ms", "share.record.lock.duration.ms",
                    "share.auto.offset.reset", "share.isolation.level", "streams.session.timeout.ms",
                    "streams.heartbeat.interval.ms", "streams.num.standby.replicas");
            assertThat(fresh.get(SESSION).value()).isEqualTo("45000");
            assertThat(fresh.get(SESSION).source()).isEqualTo(ConfigEntry.ConfigSource.DEFAULT_CONFIG);
            assertThat(fresh.get(SESSION).type()).isEqualTo(ConfigEntry.ConfigType.INT);
            assertThat(fresh.get(SESSION).documentation()).contains("consumer group protocol");
            assertThat(fresh.get("share.isolation.level").type()).isEqualTo(ConfigEntry.ConfigType.STRING);
            assertThat(fresh.get(ASSIGNMENT_INTERVAL).value()).as("the broker's group.consumer.assignment.interval.ms")
                    .isEqualTo("500");
            assertThat(fresh.get(ASSIGNMENT_INTERVAL).type()).isEqualTo(ConfigEntry.ConfigType.INT);
            assertThat(fresh.get(ASSIGNMENT_INTERVAL).documentation())
                    .isEqualTo("The interval between assignment updates for a consumer group.");
            alter(admin, "batched", set(ASSIGNMENT_INTERVAL, "2000"));
            assertThat(describe(admin, "batched").get(ASSIGNMENT_INTERVAL)).satisfies(e -> {
                assertThat(e.value()).isEqualTo("2000");
                assertThat(e.source()).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_GROUP_CONFIG);
            });

            alter(admin, "g", set(HEARTBEAT, "6000"), set(SESSION, "50000"));
            Config set = describe(admin, "g");
            assertThat(set.get(HEARTBEAT).value()).isEqualTo("6000");
            assertThat(set.get(HEARTBEAT).source()).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_GROUP_CONFIG);
            assertThat(set.get(HEARTBEAT).synonyms()).extracting(s -> s.source())
                    .containsExactly(ConfigEntry.ConfigSource.DYNAMIC_GROUP_CONFIG);
            assertThat(set.get(HEARTBEAT).isReadOnly()).isFalse();

            admin.incrementalAlterConfigs(Map.of(group("g"), List.of(set(HEARTBEAT, "7000"))),
                    new AlterConfigsOptions().validateOnly(true)).all().get(20, TimeUnit.SECONDS);
            assertThat(describe(admin, "g").get(HEARTBEAT).value()).as("validate_only stores nothing").isEqualTo("6000");

            alter(admin, "g", new AlterConfigOp(new ConfigEntry(HEARTBEAT, ""), AlterConfigOp.OpType.DELETE));
            Config deleted = describe(admin, "g");
            assertThat(deleted.get(HEARTBEAT).value()).isEqualTo("5000");
            assertThat(deleted.get(HEARTBEAT).source()).isEqualTo(ConfigEntry.ConfigSource.DEFAULT_CONFIG);
            assertThat(deleted.get(SESSION).value()).isEqualTo("50000");
        }
    }

    private static void assertRefused(Admin admin, String group, Class<? extends Throwable> type, String message,
                                      AlterConfigOp... ops) {
        assertThatThrownBy(() -> alter(admin, group, ops)).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(type).cause().hasMessageContaining(message);
    }

    @Test
    void badChangesAreRefusedAsKafkaRefusesThem() throws Exception {
        try (TestBroker broker = start(); Admin admin = broker.admin()) {
            assertRefused(admin, "g", InvalidConfigurationException.class, "Unknown group config name: session.timeout.ms",
                    set("session.timeout.ms", "10000"));
            assertRefused(admin, "g", InvalidConfigurationException.class,
                    "Invalid value soon for configuration consumer.session.timeout.ms: Not a number of type INT",
                    set(SESSION, "soon"));
            assertRefused(admin, "g", InvalidConfigurationException.class,
                    "consumer.session.timeout.ms must be in the range 1000 to 60000 inclusive.",
                    set(SESSION, "60001"));
            assertRefused(admin, "g", InvalidConfigurationException.class,
                    "consumer.heartbeat.interval.ms must be in the range 100 to 15000 inclusive.",
                    set(HEARTBEAT, "99"));
            assertRefused(admin, "g", InvalidConfigurationException.class,
                    "consumer.assignment.interval.ms must be in the range 0 to 10000 inclusive.",
                    set(ASSIGNMENT_INTERVAL, "10001"));
            assertRefused(admin, "g", InvalidConfigurationException.class,
                    "Invalid value -1 for configuration consumer.assignment.interval.ms: Value must be at least 0",
                    set(ASSIGNMENT_INTERVAL, "-1"));
            assertRefused(admin, "g", InvalidConfigurationException.class,
                    "consumer.session.timeout.ms must be greater than consumer.heartbeat.interval.ms",
                    set(SESSION, "2000"), set(HEARTBEAT, "2000"));
            assertRefused(admin, "g", InvalidConfigurationException.class,
                    "Can't APPEND to key consumer.session.timeout.ms because its type is not LIST.",
                    new AlterConfigOp(new ConfigEntry(SESSION, "1"), AlterConfigOp.OpType.APPEND));
            assertRefused(admin, "", InvalidRequestException.class, "Default group resources are not allowed.",
                    set(SESSION, "50000"));
            assertThat(describe(admin, "g").get(SESSION).source()).as("nothing was stored")
                    .isEqualTo(ConfigEntry.ConfigSource.DEFAULT_CONFIG);
            assertThatThrownBy(() -> describe(admin, "")).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(InvalidRequestException.class).cause().hasMessageContaining("Group name must not be empty");

            try (RawClient raw = new RawClient(broker.port())) {
                IncrementalAlterConfigsResponseData dup = call(raw, ApiMessageType.INCREMENTAL_ALTER_CONFIGS, 1,
                        new IncrementalAlterConfigsRequestData().setResources(new ArrayList<>(List.of(
                                new IncrementalAlterConfigsRequestData.AlterConfigsResource().setResourceType((byte) 32)
                                        .setResourceName("g").setConfigs(new ArrayList<>(List.of(
                                                new IncrementalAlterConfigsRequestData.AlterableConfig().setName(SESSION)
                                                        .setConfigOperation((byte) 0).setValue("50000"),
                                                new IncrementalAlterConfigsRequestData.AlterableConfig().setName(SESSION)
                                                        .setConfigOperation((byte) 0).setValue("51000"))))))));
                assertThat(dup.responses().get(0).errorCode()).isEqualTo(Errors.INVALID_REQUEST);
                assertThat(dup.responses().get(0).errorMessage()).isEqualTo("Error due to duplicate config keys");

                IncrementalAlterConfigsResponseData nullValue = call(raw, ApiMessageType.INCREMENTAL_ALTER_CONFIGS, 1,
                        new IncrementalAlterConfigsRequestData().setResources(new ArrayList<>(List.of(
                                new IncrementalAlterConfigsRequestData.AlterConfigsResource().setResourceType((byte) 32)
                                        .setResourceName("g").setConfigs(new ArrayList<>(List.of(
                                                new IncrementalAlterConfigsRequestData.AlterableConfig().setName(SESSION)
                                                        .setConfigOperation((byte) 0).setValue(null))))))));
                assertThat(nullValue.responses().get(0).errorCode()).isEqualTo(Errors.INVALID_REQUEST);
                assertThat(nullValue.responses().get(0).errorMessage()).isEqualTo("Null value not supported for : " + SESSION);
            }
        }
    }

    @Test
    void legacyAlterConfigsReplacesTheWholeSetOfAGroup() throws Exception {
        try (TestBroker broker = start(); Admin admin = broker.admin()) {
            alter(admin, "g", set(SESSION, "50000"));
            try (RawClient raw = new RawClient(broker.port())) {
                AlterConfigsResponseData ok = call(raw, ApiMessageType.ALTER_CONFIGS, 2, alterConfigs("g", HEARTBEAT, "6000"));
                assertThat(ok.responses().get(0).errorCode()).isEqualTo(Errors.NONE);
                AlterConfigsResponseData bad = call(raw, ApiMessageType.ALTER_CONFIGS, 2, alterConfigs("g", HEARTBEAT, "0"));
                assertThat(bad.responses().get(0).errorCode()).isEqualTo(Errors.INVALID_CONFIG);
                assertThat(bad.responses().get(0).errorMessage())
                        .isEqualTo("Invalid value 0 for configuration consumer.heartbeat.interval.ms: Value must be at least 1");
            }
            Config after = describe(admin, "g");
            assertThat(after.get(HEARTBEAT).value()).isEqualTo("6000");
            assertThat(after.get(SESSION).source()).as("replaced, not merged").isEqualTo(ConfigEntry.ConfigSource.DEFAULT_CONFIG);
        }
    }

    private static AlterConfigsRequestData alterConfigs(String group, String name, String value) {
        return new AlterConfigsRequestData().setResources(new ArrayList<>(List.of(new AlterConfigsRequestData.AlterConfigsResource()
                .setResourceType((byte) 32).setResourceName(group).setConfigs(new ArrayList<>(List.of(
                        new AlterConfigsRequestData.AlterableConfig().setName(name).setValue(value)))))));
    }

    @Test
    void membersGetTheGroupsHeartbeatIntervalAndSessionTimeoutAcrossARestart() throws Exception {
        try (TestBroker broker = start(); Admin admin = broker.admin()) {
            broker.createTopic("orders", 2);
            alter(admin, "fast", set(HEARTBEAT, "200"), set(SESSION, "1500"));
            admin.close();
            try (TestBroker restarted = broker.restart(); Admin again = restarted.admin()) {
                assertThat(describe(again, "fast").get(HEARTBEAT).source()).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_GROUP_CONFIG);
                assertThat(describe(again, "fast").get(HEARTBEAT).value()).isEqualTo("200");

                try (RawClient raw = new RawClient(restarted.port())) {
                    FindCoordinatorResponseData found = call(raw, ApiMessageType.FIND_COORDINATOR, 4,
                            new FindCoordinatorRequestData().setKeyType((byte) 0).setCoordinatorKeys(List.of("fast", "plain")));
                    assertThat(found.coordinators()).as("as a client asks first").allSatisfy(c ->
                            assertThat(c.errorCode()).isEqualTo(Errors.NONE));
                    ConsumerGroupHeartbeatResponseData fast = call(raw, ApiMessageType.CONSUMER_GROUP_HEARTBEAT, 0, join("fast"));
                    assertThat(fast.errorCode()).isEqualTo(Errors.NONE);
                    assertThat(fast.heartbeatIntervalMs()).isEqualTo(200);
                    ConsumerGroupHeartbeatResponseData plain = call(raw, ApiMessageType.CONSUMER_GROUP_HEARTBEAT, 0, join("plain"));
                    assertThat(plain.heartbeatIntervalMs()).isEqualTo(5000);
                }
                // The raw member above stopped heartbeating: the group's 1.5 s session timeout removes it,
                // while the broker's own 45 s keeps the other group's member.
                Awaitility.await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(again
                        .describeConsumerGroups(List.of("fast")).all().get(10, TimeUnit.SECONDS).get("fast").members()).isEmpty());
                assertThat(again.describeConsumerGroups(List.of("plain")).all().get(10, TimeUnit.SECONDS).get("plain").members())
                        .hasSize(1);

                try (KafkaConsumer<String, String> consumer = restarted.consumerProtocolConsumer("fast", Map.of())) {
                    consumer.subscribe(List.of("orders"));
                    // Ten heartbeats come within a few seconds at the group's 200 ms; at the broker's 5 s default they
                    // would take 45 s or more, past this bounded wait (no timing of the machine's speed is asserted).
                    Awaitility.await("ten heartbeats at the group's interval").atMost(Duration.ofSeconds(25)).pollInSameThread()
                            .pollInterval(Duration.ofMillis(50)).until(() -> {
                                consumer.poll(Duration.ofMillis(100));
                                return heartbeats(consumer) >= 10;
                            });
                }
            }
        }
    }

    private static double heartbeats(KafkaConsumer<?, ?> consumer) {
        for (Map.Entry<MetricName, ? extends Metric> e : consumer.metrics().entrySet()) {
            if (e.getKey().name().equals("heartbeat-total") && e.getKey().group().equals("consumer-coordinator-metrics")) {
                return ((Number) e.getValue().metricValue()).doubleValue();
            }
        }
        throw new AssertionError("no heartbeat-total metric in " + consumer.metrics().keySet());
    }

    private static ConsumerGroupHeartbeatRequestData join(String group) {
        return new ConsumerGroupHeartbeatRequestData().setGroupId(group).setMemberId(UUID.randomUUID().toString())
                .setMemberEpoch(0).setRebalanceTimeoutMs(30_000).setSubscribedTopicNames(List.of("orders"))
                .setTopicPartitions(List.of());
    }

    @Test
    void listConfigResourcesNamesTopicsBrokersAndGroups() throws Exception {
        try (TestBroker broker = start(); Admin admin = broker.admin()) {
            broker.createTopic("orders", 1);
            alter(admin, "configured", set(SESSION, "50000"));
            alter(admin, "emptied", set(SESSION, "50000"));
            alter(admin, "emptied", new AlterConfigOp(new ConfigEntry(SESSION, ""), AlterConfigOp.OpType.DELETE));
            try (KafkaConsumer<String, String> member = broker.consumerProtocolConsumer("members-only", Map.of())) {
                member.subscribe(List.of("orders"));
                member.poll(Duration.ofSeconds(2));
            }
            Collection<ConfigResource> all = admin.listConfigResources(Set.of(ConfigResource.Type.GROUP,
                    ConfigResource.Type.TOPIC, ConfigResource.Type.BROKER), new ListConfigResourcesOptions())
                    .all().get(20, TimeUnit.SECONDS);
            String node = Integer.toString(broker.broker.nodeId());
            assertThat(all).contains(group("configured"), new ConfigResource(ConfigResource.Type.TOPIC, "orders"),
                    new ConfigResource(ConfigResource.Type.BROKER, node));
            assertThat(all).doesNotContain(new ConfigResource(ConfigResource.Type.BROKER_LOGGER, node));
            assertThat(admin.listConfigResources(Set.of(ConfigResource.Type.GROUP), new ListConfigResourcesOptions())
                    .all().get(20, TimeUnit.SECONDS)).as("only groups with configs, as Kafka").containsExactly(group("configured"));

            try (RawClient raw = new RawClient(broker.port())) {
                ListConfigResourcesResponseData v0 = call(raw, ApiMessageType.LIST_CONFIG_RESOURCES, 0,
                        new ListConfigResourcesRequestData());
                assertThat(v0.errorCode()).isEqualTo(Errors.NONE);
                assertThat(v0.configResources()).as("v0 lists client-metrics subscriptions: none").isEmpty();
                ListConfigResourcesResponseData every = call(raw, ApiMessageType.LIST_CONFIG_RESOURCES, 1,
                        new ListConfigResourcesRequestData().setResourceTypes(new ArrayList<>()));
                assertThat(every.configResources()).extracting(r -> r.resourceType() + "/" + r.resourceName())
                        .contains("32/configured", "8/" + node, "4/" + node, "2/orders");
                ListConfigResourcesResponseData unknownType = call(raw, ApiMessageType.LIST_CONFIG_RESOURCES, 1,
                        new ListConfigResourcesRequestData().setResourceTypes(new ArrayList<>(List.of((byte) 3))));
                assertThat(unknownType.errorCode()).isEqualTo(Errors.UNSUPPORTED_VERSION);
                assertThat(unknownType.configResources()).isEmpty();
            }
        }
    }

    private static int correlation = 1;

    @SuppressWarnings("unchecked")
    static <T extends ApiMessage> T call(RawClient raw, ApiMessageType api, int version, ApiMessage body) throws IOException {
        int id = correlation++;
        raw.send(api, (short) version, id, body);
        RawClient.Response<ApiMessage> response = raw.read(api, (short) version);
        assertThat(response.correlationId()).isEqualTo(id);
        return (T) response.body();
    }
}
