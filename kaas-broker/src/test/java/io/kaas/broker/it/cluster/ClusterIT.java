package io.kaas.broker.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kaas.broker.it.KafkaClients;
import io.kaas.broker.it.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three kaas brokers on one shared directory, coordinated by a real 3-node ZooKeeper ensemble, driven by the real
 * Java clients: partitions spread over the brokers, Metadata agrees everywhere, records go to and come from every
 * leader, a broker that leaves has its partitions led elsewhere at higher epochs with no acknowledged record lost, and
 * a broker that comes back gets partitions again.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ClusterIT {
    @TempDir
    Path dir;

    /** Every partition's leader as broker {@code b} answers Metadata; partitions without one are left out. */
    private static Map<Integer, Integer> leaders(TestBroker b, String topic) throws Exception {
        try (Admin admin = b.admin()) {
            TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS)
                .get(topic);
            Map<Integer, Integer> out = new TreeMap<>();
            for (TopicPartitionInfo p : d.partitions()) {
                if (p.leader() != null && !p.leader().isEmpty()) {
                    out.put(p.partition(), p.leader().id());
                    assertThat(p.replicas()).as("the single writer is the only replica").containsExactly(p.leader());
                    assertThat(p.isr()).containsExactly(p.leader());
                }
            }
            return out;
        }
    }

    /** Waits until every broker's Metadata shows every partition of {@code topic} led, all the same; returns it. */
    private static Map<Integer, Integer> awaitAgreedLeaders(TestCluster cluster, String topic, int partitions) {
        Map<Integer, Integer>[] agreed = new Map[1];
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
            Map<Integer, Integer> first = null;
            for (TestBroker b : cluster.brokers().values()) {
                Map<Integer, Integer> l = leaders(b, topic);
                assertThat(l).hasSize(partitions);
                assertThat(l.values()).allSatisfy(id -> assertThat(cluster.brokers()).containsKey(id));
                if (first == null) {
                    first = l;
                } else {
                    assertThat(l).as("Metadata of broker %s", b.bootstrap()).isEqualTo(first);
                }
            }
            agreed[0] = first;
        });
        return agreed[0];
    }

    private static Map<Integer, Integer> epochs(Admin admin, String topic, int partitions) throws Exception {
        Map<Integer, Integer> out = new TreeMap<>();
        for (int p = 0; p < partitions; p++) {
            out.put(p, KafkaClients.leaderEpoch(admin, new TopicPartition(topic, p)));
        }
        return out;
    }

    @Test
    void partitionsSpreadOverTheBrokersAndEveryBrokerAnswersTheSameMetadata() throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 3, Map.of()); Admin admin = cluster.clients().admin()) {
            DescribeClusterResult described = admin.describeCluster();
            assertThat(described.nodes().get(10, TimeUnit.SECONDS)).extracting(Node::id).containsExactlyInAnyOrder(1, 2, 3);
            assertThat(described.nodes().get()).allSatisfy(n -> assertThat(n.rack()).isEqualTo("rack-" + n.id()));
            int controller = described.controller().get().id();
            assertThat(controller).isIn(1, 2, 3);
            for (TestBroker b : cluster.brokers().values()) {
                try (Admin one = b.admin()) {
                    assertThat(one.describeCluster().controller().get(10, TimeUnit.SECONDS).id())
                        .as("every broker names the same controller").isEqualTo(controller);
                }
            }

            KafkaClients.createTopic(admin, "spread", 6, Map.of());
            Map<Integer, Integer> leaders = awaitAgreedLeaders(cluster, "spread", 6);
            Map<Integer, Integer> counts = new HashMap<>();
            leaders.values().forEach(id -> counts.merge(id, 1, Integer::sum));
            assertThat(counts).as("balanced by count").containsOnlyKeys(1, 2, 3).containsValues(2, 2, 2);
            assertThat(epochs(admin, "spread", 6).values()).allSatisfy(e -> assertThat(e).isPositive());
        }
    }

    @Test
    void aBrokerThatLeavesHasItsPartitionsLedElsewhereWithNothingAcknowledgedLostAndGetsPartitionsWhenItRejoins()
            throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 3, Map.of())) {
            KafkaClients clients = cluster.clients();
            try (Admin admin = clients.admin()) {
                KafkaClients.createTopic(admin, "orders", 6, Map.of());
            }
            Map<Integer, Integer> leaders = awaitAgreedLeaders(cluster, "orders", 6);
            Set<String> acked = new HashSet<>();
            try (KafkaProducer<String, String> producer = clients.producer(Map.of(
                    ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 60_000))) {
                send(producer, "before", 300, acked);

                Map<Integer, Integer> before;
                try (Admin admin = clients.admin()) {
                    before = epochs(admin, "orders", 6);
                }
                int leaving = leaders.get(0);
                cluster.closeBroker(leaving);

                Map<Integer, Integer> after = awaitAgreedLeaders(cluster, "orders", 6);
                assertThat(after.values()).doesNotContain(leaving);
                try (Admin admin = cluster.clients().admin()) {
                    Map<Integer, Integer> epochs = epochs(admin, "orders", 6);
                    for (int p = 0; p < 6; p++) {
                        if (leaders.get(p) == leaving) {
                            assertThat(epochs.get(p)).as("partition %d taken over at a higher epoch", p)
                                .isGreaterThan(before.get(p));
                        } else {
                            assertThat(after.get(p)).as("partition %d stays where it was", p).isEqualTo(leaders.get(p));
                        }
                    }
                }
                send(producer, "after", 300, acked);

                cluster.startBroker(leaving);
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
                    assertThat(leaders(cluster.broker(leaving), "orders").values()).as("the rejoined broker leads again")
                        .contains(leaving));
                awaitAgreedLeaders(cluster, "orders", 6);
                send(producer, "rejoined", 300, acked);
            }
            assertThat(acked).hasSize(900);
            try (KafkaConsumer<String, String> consumer = cluster.clients().consumer()) {
                List<String> read = new ArrayList<>();
                for (int p = 0; p < 6; p++) {
                    KafkaClients.readAll(consumer, new TopicPartition("orders", p), Duration.ofSeconds(30))
                        .stream().map(ConsumerRecord::value).forEach(read::add);
                }
                assertThat(read).as("every acknowledged record, once").hasSize(900).containsExactlyInAnyOrderElementsOf(acked);
            }
        }
    }

    /** Sends {@code count} records keyed over every partition and adds the acknowledged values to {@code acked}. */
    private static void send(KafkaProducer<String, String> producer, String prefix, int count, Set<String> acked)
            throws Exception {
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            sent.add(producer.send(new ProducerRecord<>("orders", i % 6, "k" + i, prefix + "-" + i)));
        }
        for (int i = 0; i < count; i++) {
            sent.get(i).get(60, TimeUnit.SECONDS);
            acked.add(prefix + "-" + i);
        }
    }
}
