package io.kaas.broker.it.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.it.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Real Java consumers in classic groups: rebalancing, exactly-once hand-over, static membership. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConsumerGroupIT {
    @TempDir
    static Path dataDir;
    static TestBroker broker;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.builder(dataDir).noInitialRebalanceDelay().start();
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    static void produce(String topic, int from, int count) {
        try (KafkaProducer<String, String> producer = broker.producer()) {
            for (int i = from; i < from + count; i++) {
                producer.send(new ProducerRecord<>(topic, "key-" + i, "value-" + i));
            }
            producer.flush();
        }
    }

    static void await(String what, BooleanSupplier condition) {
        Awaitility.await(what).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                .until(condition::getAsBoolean);
    }

    /** No record is read a second time during {@code window}: the count stays at {@code records}, once each. */
    static void assertNoDuplicateDuring(Duration window, Map<String, List<String>> seenBy, int records) {
        Awaitility.await("no record read twice for " + window).during(window).atMost(window.multipliedBy(10))
                .untilAsserted(() -> {
                    assertThat(seenBy).hasSize(records);
                    assertThat(seenBy.values()).allSatisfy(readers -> assertThat(readers).hasSize(1));
                });
    }

    @Test
    void everyRecordIsConsumedExactlyOnceWhileMembersJoinAndLeave() throws Exception {
        String topic = "rebalance-topic";
        String group = "rebalance-group";
        broker.createTopic(topic, 6);
        Map<String, List<String>> seenBy = new ConcurrentHashMap<>();
        List<RebalancingConsumer> members = new ArrayList<>();
        try {
            produce(topic, 0, 300);
            RebalancingConsumer c1 = new RebalancingConsumer("c1", broker.groupConsumer(group, Map.of()), topic, seenBy);
            RebalancingConsumer c2 = new RebalancingConsumer("c2", broker.groupConsumer(group, Map.of()), topic, seenBy);
            members.add(c1);
            members.add(c2);
            await("two members sharing six partitions",
                    () -> c1.assigned.size() + c2.assigned.size() == 6 && !c1.assigned.isEmpty() && !c2.assigned.isEmpty());
            await("the first 300 records", () -> seenBy.size() >= 300);

            produce(topic, 300, 300);
            RebalancingConsumer c3 = new RebalancingConsumer("c3", broker.groupConsumer(group, Map.of()), topic, seenBy);
            members.add(c3);
            await("three members with two partitions each", () -> c1.assigned.size() == 2 && c2.assigned.size() == 2
                    && c3.assigned.size() == 2);
            produce(topic, 600, 300);
            await("900 records", () -> seenBy.size() >= 900);

            c1.close(); // leaves the group (LeaveGroup)
            members.remove(c1);
            await("two members again", () -> c2.assigned.size() + c3.assigned.size() == 6);
            produce(topic, 900, 300);
            await("1200 records", () -> seenBy.size() >= 1200);
            assertNoDuplicateDuring(Duration.ofMillis(500), seenBy, 1200); // a duplicate would show up now

            assertThat(seenBy).hasSize(1200);
            assertThat(seenBy.entrySet()).allSatisfy(e -> assertThat(e.getValue()).as(e.getKey()).hasSize(1));
            Set<String> readers = new HashSet<>();
            seenBy.values().forEach(readers::addAll);
            assertThat(readers).containsExactlyInAnyOrder("c1", "c2", "c3");
            assertThat(c3.consumed).isNotEmpty();
            for (RebalancingConsumer m : List.of(c1, c2, c3)) {
                assertThat(m.failure.get()).as(m.name).isNull();
            }
        } finally {
            for (RebalancingConsumer m : members) {
                m.close();
            }
        }
        try (Admin admin = broker.admin()) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata().get(20, TimeUnit.SECONDS);
            assertThat(committed.values().stream().mapToLong(OffsetAndMetadata::offset).sum()).isEqualTo(1200);
        }
    }

    @Test
    void staticMembersRejoinWithoutARebalance() throws Exception {
        String topic = "static-topic";
        String group = "static-group";
        broker.createTopic(topic, 6);
        Map<String, List<String>> seenBy = new ConcurrentHashMap<>();
        Map<String, Object> a = Map.of(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "instance-a",
                ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 30_000);
        Map<String, Object> b = Map.of(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "instance-b",
                ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 30_000);
        RebalancingConsumer ca = new RebalancingConsumer("a", broker.groupConsumer(group, a), topic, seenBy);
        RebalancingConsumer cb = new RebalancingConsumer("b", broker.groupConsumer(group, b), topic, seenBy);
        try {
            await("both static members assigned", () -> ca.assigned.size() == 3 && cb.assigned.size() == 3);
            Set<TopicPartition> bPartitions = Set.copyOf(cb.assigned);
            int aAssignments = ca.assignments.get();
            int aRevocations = ca.revocations.get();

            cb.close(); // a static member does not leave the group on close
            RebalancingConsumer cb2 = new RebalancingConsumer("b2", broker.groupConsumer(group, b), topic, seenBy);
            try {
                await("the restarted member gets its partitions back", () -> cb2.assigned.size() == 3);
                assertThat(cb2.assigned).isEqualTo(bPartitions);
                produce(topic, 0, 60);
                await("60 records", () -> seenBy.size() >= 60);
                assertThat(ca.assignments.get()).as("no rebalance reached the other member").isEqualTo(aAssignments);
                assertThat(ca.revocations.get()).isEqualTo(aRevocations);
                try (Admin admin = broker.admin()) {
                    ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(group)).all()
                            .get(20, TimeUnit.SECONDS).get(group);
                    assertThat(d.groupState()).isEqualTo(GroupState.STABLE);
                    assertThat(d.members()).extracting(m -> m.groupInstanceId().orElse(null))
                            .containsExactlyInAnyOrder("instance-a", "instance-b");
                }
            } finally {
                cb2.close();
            }
        } finally {
            ca.close();
        }
    }

    @Test
    void commitsAndDescribesThroughTheAdminClient() throws Exception {
        String topic = "admin-topic";
        String group = "admin-group";
        broker.createTopic(topic, 2);
        produce(topic, 0, 20);
        try (KafkaConsumer<String, String> consumer = broker.groupConsumer(group, Map.of())) {
            consumer.subscribe(List.of(topic));
            List<ConsumerRecord<String, String>> got = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (got.size() < 20 && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(100)).forEach(got::add);
            }
            assertThat(got).hasSize(20);
            TopicPartition p0 = new TopicPartition(topic, 0);
            consumer.commitSync(Map.of(p0, new OffsetAndMetadata(3, "my-metadata")));
            OffsetAndMetadata c = consumer.committed(Set.of(p0)).get(p0);
            assertThat(c.offset()).isEqualTo(3);
            assertThat(c.metadata()).isEqualTo("my-metadata");
            try (Admin admin = broker.admin()) {
                ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(group)).all()
                        .get(20, TimeUnit.SECONDS).get(group);
                assertThat(d.groupState()).isEqualTo(GroupState.STABLE);
                assertThat(d.members()).singleElement().satisfies(m ->
                        assertThat(m.assignment().topicPartitions()).hasSize(2));
                assertThat(admin.listGroups().all().get(20, TimeUnit.SECONDS))
                        .anySatisfy(l -> assertThat(l.groupId()).isEqualTo(group));
            }
        }
    }
}
