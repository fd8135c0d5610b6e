package io.kaas.broker.it.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.it.TestBroker;
import java.io.File;
import java.nio.charset.StandardCharsets;
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
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real Java consumers with {@code group.protocol=consumer} (KIP-848): server-side assignment, revocation
 * before reassignment, exactly-once hand-over while members join and leave, and the admin views
 * (Admin.describeConsumerGroups through ConsumerGroupDescribe, {@code kafka-consumer-groups --describe}).
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class ConsumerProtocolGroupIT {
    @TempDir
    static Path dataDir;
    static TestBroker broker;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.builder(dataDir).noInitialRebalanceDelay().config(Map.of("group.consumer.heartbeat.interval.ms", "500",
                "group.consumer.session.timeout.ms", "10000", "group.consumer.min.heartbeat.interval.ms", "500",
                "group.consumer.min.session.timeout.ms", "10000")).start();
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

    RebalancingConsumer member(String name, String group, String topic, Map<String, List<String>> seenBy,
                               Map<String, Object> extra) {
        return new RebalancingConsumer(name, broker.consumerProtocolConsumer(group, extra), topic, seenBy);
    }

    @Test
    void everyRecordIsConsumedExactlyOnceWhileMembersJoinAndLeave() throws Exception {
        String topic = "kip848-topic";
        String group = "kip848-group";
        broker.createTopic(topic, 6);
        Map<String, List<String>> seenBy = new ConcurrentHashMap<>();
        List<RebalancingConsumer> members = new ArrayList<>();
        try {
            produce(topic, 0, 300);
            RebalancingConsumer c1 = member("c1", group, topic, seenBy, Map.of());
            RebalancingConsumer c2 = member("c2", group, topic, seenBy, Map.of());
            members.add(c1);
            members.add(c2);
            await("two members sharing six partitions",
                    () -> c1.assigned.size() == 3 && c2.assigned.size() == 3);
            await("the first 300 records", () -> seenBy.size() >= 300);

            produce(topic, 300, 300);
            RebalancingConsumer c3 = member("c3", group, topic, seenBy, Map.of());
            members.add(c3);
            await("three members with two partitions each", () -> c1.assigned.size() == 2 && c2.assigned.size() == 2
                    && c3.assigned.size() == 2);
            assertDisjoint(c1, c2, c3);
            produce(topic, 600, 300);
            await("900 records", () -> seenBy.size() >= 900);

            describeShowsTheGroup(group, topic, Set.of(c1, c2, c3));

            c1.close(); // leaves with epoch -1
            members.remove(c1);
            await("two members again", () -> c2.assigned.size() == 3 && c3.assigned.size() == 3);
            assertDisjoint(c2, c3);
            produce(topic, 900, 300);
            await("1200 records", () -> seenBy.size() >= 1200);
            assertNoDuplicateDuring(Duration.ofMillis(500), seenBy, 1200); // a duplicate would show up now

            assertThat(seenBy).hasSize(1200);
            assertThat(seenBy.entrySet()).allSatisfy(e -> assertThat(e.getValue()).as(e.getKey()).hasSize(1));
            Set<String> readers = new HashSet<>();
            seenBy.values().forEach(readers::addAll);
            assertThat(readers).containsExactlyInAnyOrder("c1", "c2", "c3");
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
            ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(group)).all().get(20, TimeUnit.SECONDS).get(group);
            assertThat(d.groupState()).isEqualTo(GroupState.EMPTY);
            assertThat(d.type()).isEqualTo(GroupType.CONSUMER);
        }
    }

    private static void assertDisjoint(RebalancingConsumer... members) {
        Set<TopicPartition> all = new HashSet<>();
        for (RebalancingConsumer m : members) {
            for (TopicPartition tp : m.assigned) {
                assertThat(all.add(tp)).as("%s owned twice", tp).isTrue();
            }
        }
    }

    private static void describeShowsTheGroup(String group, String topic, Set<RebalancingConsumer> members) throws Exception {
        try (Admin admin = broker.admin()) {
            await("a stable group", () -> {
                try {
                    return admin.describeConsumerGroups(List.of(group)).all().get(20, TimeUnit.SECONDS).get(group)
                            .groupState() == GroupState.STABLE;
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
            ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(group)).all().get(20, TimeUnit.SECONDS).get(group);
            assertThat(d.type()).isEqualTo(GroupType.CONSUMER);
            assertThat(d.partitionAssignor()).isEqualTo("uniform");
            assertThat(d.groupEpoch()).isPresent();
            assertThat(d.targetAssignmentEpoch()).isEqualTo(d.groupEpoch());
            assertThat(d.members()).hasSize(3);
            Set<TopicPartition> assigned = new HashSet<>();
            for (MemberDescription m : d.members()) {
                assertThat(m.assignment().topicPartitions()).hasSize(2);
                assertThat(m.targetAssignment()).isPresent();
                assertThat(m.targetAssignment().get().topicPartitions()).isEqualTo(m.assignment().topicPartitions());
                assigned.addAll(m.assignment().topicPartitions());
            }
            assertThat(assigned).hasSize(6).allSatisfy(tp -> assertThat(tp.topic()).isEqualTo(topic));

            List<GroupListing> listed = new ArrayList<>(admin.listGroups(ListGroupsOptions.forConsumerGroups())
                    .all().get(20, TimeUnit.SECONDS));
            assertThat(listed).anySatisfy(g -> {
                assertThat(g.groupId()).isEqualTo(group);
                assertThat(g.type()).contains(GroupType.CONSUMER);
                assertThat(g.protocol()).isEqualTo("consumer");
            });
        }
        String out = tool("--describe", "--group", group);
        int rows = 0;
        for (String line : out.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 7 && f[0].equals(group) && f[1].equals(topic)) {
                rows++;
                assertThat(f[6]).as(line).isNotEqualTo("-"); // CONSUMER-ID: every partition has an owner
            }
        }
        assertThat(rows).as(out).isEqualTo(6);
        String members2 = tool("--describe", "--group", group, "--members");
        assertThat(members2.lines().filter(l -> l.startsWith(group))).as(members2).hasSize(3);
    }

    @Test
    void rangeAssignorChosenByTheClient() throws Exception {
        String topic = "kip848-range";
        String group = "kip848-range-group";
        broker.createTopic(topic, 6);
        Map<String, List<String>> seenBy = new ConcurrentHashMap<>();
        Map<String, Object> range = Map.of(ConsumerConfig.GROUP_REMOTE_ASSIGNOR_CONFIG, "range");
        RebalancingConsumer c1 = member("c1", group, topic, seenBy, range);
        RebalancingConsumer c2 = member("c2", group, topic, seenBy, range);
        try {
            await("two members with three partitions each", () -> c1.assigned.size() == 3 && c2.assigned.size() == 3);
            try (Admin admin = broker.admin()) {
                ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(group)).all().get(20, TimeUnit.SECONDS)
                        .get(group);
                assertThat(d.partitionAssignor()).isEqualTo("range");
                for (MemberDescription m : d.members()) {
                    Set<Integer> ps = new HashSet<>();
                    m.assignment().topicPartitions().forEach(tp -> ps.add(tp.partition()));
                    assertThat(ps).isIn(Set.of(0, 1, 2), Set.of(3, 4, 5));
                }
            }
        } finally {
            c1.close();
            c2.close();
        }
    }

    static String tool(String... args) throws Exception {
        String classpath = System.getProperty("java.class.path");
        String modulePath = System.getProperty("jdk.module.path");
        if (modulePath != null && !modulePath.isEmpty()) {
            classpath = classpath + File.pathSeparator + modulePath;
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", classpath, "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand",
                "--bootstrap-server", broker.bootstrap()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("kafka-consumer-groups " + String.join(" ", args) + " did not finish");
        }
        String text = new String(out, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(text).isZero();
        return text;
    }
}
