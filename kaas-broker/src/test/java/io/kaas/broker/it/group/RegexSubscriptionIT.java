package io.kaas.broker.it.group;

import static io.kaas.broker.it.group.GroupConfigsIT.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.broker.it.TestBroker;
import io.kaas.broker.network.RawClient;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.ConsumerGroupHeartbeatRequestData;
import io.kaas.wire.message.ConsumerGroupHeartbeatResponseData;
import io.kaas.wire.message.FindCoordinatorRequestData;
import io.kaas.wire.protocol.Errors;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.SubscriptionPattern;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidRegularExpression;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * KIP-848 regular expression subscriptions resolved as Kafka 4.4 resolves them: off the heartbeat, so the
 * first assignment after subscribing a regex and a topic name holds the named topic only and a later
 * heartbeat adds what the regex matches; a topic created later is matched within the refresh bound (10 s
 * after the last resolution, at the next heartbeat); an invalid regex is refused with
 * INVALID_REGULAR_EXPRESSION (the real Java consumer, SubscriptionPattern); the real Java consumer's rapid
 * subscribe / unsubscribe / resubscribe ends on its last subscription. The regex heartbeats go over the wire as
 * librdkafka sends them.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RegexSubscriptionIT {
    @TempDir
    static Path dataDir;
    static TestBroker broker;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.builder(dataDir).noInitialRebalanceDelay().config(Map.of(
                "group.consumer.heartbeat.interval.ms", "500", "group.consumer.min.heartbeat.interval.ms", "500",
                "group.consumer.session.timeout.ms", "10000", "group.consumer.min.session.timeout.ms", "10000"))
                .start();
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    private static KafkaConsumer<String, String> consumer(String group) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        return new KafkaConsumer<>(p);
    }

    private static Set<String> topicsOf(KafkaConsumer<String, String> c) {
        return c.assignment().stream().map(TopicPartition::topic).collect(Collectors.toCollection(TreeSet::new));
    }

    private static void awaitAssigned(KafkaConsumer<String, String> c, Set<String> topics, int partitions) {
        Awaitility.await(topics.toString()).atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(1))
                .until(() -> {
                    c.poll(Duration.ofMillis(100));
                    return topicsOf(c).equals(topics) && c.assignment().size() == partitions;
                });
    }

    private static ConsumerGroupHeartbeatRequestData join(String group, String memberId) {
        return new ConsumerGroupHeartbeatRequestData().setGroupId(group).setMemberId(memberId).setMemberEpoch(0)
                .setRebalanceTimeoutMs(30_000).setTopicPartitions(List.of());
    }

    private static Map<UUID, Set<Integer>> assigned(ConsumerGroupHeartbeatResponseData r) {
        Map<UUID, Set<Integer>> out = new HashMap<>();
        r.assignment().topicPartitions().forEach(tp -> out.put(tp.topicId(), new TreeSet<>(tp.partitions())));
        return out;
    }

    @Test
    void theTopicNamesAreAssignedFirstAndTheRegexMatchesAtALaterHeartbeat() throws Exception {
        broker.createTopic("mixed-orders-1", 2);
        broker.createTopic("mixed-orders-2", 2);
        broker.createTopic("mixed-audit", 1);
        UUID audit;
        try (var admin = broker.admin()) {
            audit = toJavaUuid(admin.describeTopics(List.of("mixed-audit")).allTopicNames().get().get("mixed-audit")
                    .topicId());
        }
        String group = "mixed-group";
        String memberId = UUID.randomUUID().toString();
        try (RawClient raw = new RawClient(broker.port())) {
            call(raw, ApiMessageType.FIND_COORDINATOR, 4,
                    new FindCoordinatorRequestData().setKeyType((byte) 0).setCoordinatorKeys(List.of(group)));
            // librdkafka's subscription to a regex and a topic name
            ConsumerGroupHeartbeatResponseData first = call(raw, ApiMessageType.CONSUMER_GROUP_HEARTBEAT, 1,
                    join(group, memberId).setSubscribedTopicNames(List.of("mixed-audit"))
                            .setSubscribedTopicRegex("mixed-orders-.*"));
            assertThat(first.errorCode()).as(first.errorMessage()).isEqualTo(Errors.NONE);
            assertThat(assigned(first)).as("the named topic only").isEqualTo(Map.of(audit, Set.of(0)));

            List<ConsumerGroupHeartbeatResponseData> later = new ArrayList<>();
            Awaitility.await("the regex's topics").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
                    .until(() -> {
                        ConsumerGroupHeartbeatResponseData r = call(raw, ApiMessageType.CONSUMER_GROUP_HEARTBEAT, 1,
                                new ConsumerGroupHeartbeatRequestData().setGroupId(group).setMemberId(memberId)
                                        .setMemberEpoch(later.isEmpty() ? first.memberEpoch()
                                                : later.get(later.size() - 1).memberEpoch()));
                        assertThat(r.errorCode()).as(r.errorMessage()).isEqualTo(Errors.NONE);
                        later.add(r);
                        return r.assignment() != null
                                && r.assignment().topicPartitions().stream().mapToInt(tp -> tp.partitions().size())
                                .sum() == 5;
                    });
            assertThat(later.get(later.size() - 1).memberEpoch()).isGreaterThan(first.memberEpoch());
        }
    }

    private static UUID toJavaUuid(org.apache.kafka.common.Uuid id) {
        return new UUID(id.getMostSignificantBits(), id.getLeastSignificantBits());
    }

    /** Heartbeats (as a client does every 500 ms) until the member owns {@code partitions} partitions. */
    private static ConsumerGroupHeartbeatResponseData beatUntil(RawClient raw, String group, String memberId,
                                                                ConsumerGroupHeartbeatResponseData last, int partitions) {
        ConsumerGroupHeartbeatResponseData[] now = {last};
        int[] owned = {count(last)};
        Awaitility.await(partitions + " partitions").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    if (owned[0] == partitions) {
                        return true;
                    }
                    now[0] = call(raw, ApiMessageType.CONSUMER_GROUP_HEARTBEAT, 1, new ConsumerGroupHeartbeatRequestData()
                            .setGroupId(group).setMemberId(memberId).setMemberEpoch(now[0].memberEpoch()));
                    assertThat(now[0].errorCode()).as(now[0].errorMessage()).isEqualTo(Errors.NONE);
                    if (now[0].assignment() != null) {
                        owned[0] = count(now[0]);
                    }
                    return owned[0] == partitions;
                });
        return now[0];
    }

    private static int count(ConsumerGroupHeartbeatResponseData r) {
        return r.assignment() == null ? 0
                : r.assignment().topicPartitions().stream().mapToInt(tp -> tp.partitions().size()).sum();
    }

    @Test
    void aTopicCreatedLaterIsAssignedWithinTheRefreshBound() throws Exception {
        broker.createTopic("later-a", 2);
        String group = "later-group";
        String memberId = UUID.randomUUID().toString();
        try (RawClient raw = new RawClient(broker.port())) {
            call(raw, ApiMessageType.FIND_COORDINATOR, 4,
                    new FindCoordinatorRequestData().setKeyType((byte) 0).setCoordinatorKeys(List.of(group)));
            ConsumerGroupHeartbeatResponseData joined = call(raw, ApiMessageType.CONSUMER_GROUP_HEARTBEAT, 1,
                    join(group, memberId).setSubscribedTopicRegex("later-.*"));
            assertThat(joined.errorCode()).as(joined.errorMessage()).isEqualTo(Errors.NONE);
            ConsumerGroupHeartbeatResponseData a = beatUntil(raw, group, memberId, joined, 2);
            broker.createTopic("later-b", 3);
            long created = System.nanoTime();
            beatUntil(raw, group, memberId, a, 5);
            assertThat(Duration.ofNanos(System.nanoTime() - created))
                    .as("10 s after the last resolution, at the next heartbeat").isLessThan(Duration.ofSeconds(15));
        }
    }

    @Test
    void anInvalidRegexIsRefusedAsKafkaRefusesIt() {
        try (KafkaConsumer<String, String> c = consumer("invalid-group")) {
            c.subscribe(new SubscriptionPattern("(unclosed"));
            assertThatThrownBy(() -> Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> {
                c.poll(Duration.ofMillis(100));
                return false;
            })).isInstanceOf(InvalidRegularExpression.class)
                    .hasMessageContaining("SubscribedTopicRegex `(unclosed` is not a valid regular expression");
        }
        try (var admin = broker.admin()) {
            assertThat(admin.listGroups().all().get()).noneMatch(g -> g.groupId().equals("invalid-group"));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void rapidSubscribeUnsubscribeAndResubscribeReachTheLastSubscription() throws Exception {
        for (int i = 0; i < 4; i++) {
            broker.createTopic("rapid-" + i, 2);
        }
        try (KafkaConsumer<String, String> c = consumer("rapid-group")) {
            c.subscribe(List.of("rapid-0"));
            awaitAssigned(c, Set.of("rapid-0"), 2);
            for (int i = 1; i < 4; i++) {
                c.subscribe(List.of("rapid-" + i, "rapid-" + (i - 1)));
                c.poll(Duration.ofMillis(10));
            }
            awaitAssigned(c, Set.of("rapid-2", "rapid-3"), 4);
            c.unsubscribe();
            c.subscribe(List.of("rapid-1"));
            c.unsubscribe();
            c.subscribe(List.of("rapid-0", "rapid-1"));
            awaitAssigned(c, Set.of("rapid-0", "rapid-1"), 4);
        }
    }
}
