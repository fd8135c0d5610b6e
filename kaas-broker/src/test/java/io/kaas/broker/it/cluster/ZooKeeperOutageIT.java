package io.kaas.broker.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kaas.broker.it.KafkaClients;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.InstanceSpec;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The brokers' writes against the health of the ZooKeeper ensemble: losing one of three servers changes nothing;
 * losing the quorum stops every acknowledgement (a broker that cannot prove it still owns a partition fails safe);
 * writes resume when the quorum is back, and every record acknowledged before, during or after is there once.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ZooKeeperOutageIT {
    @TempDir
    Path dir;

    private static void sendAcked(KafkaProducer<String, String> producer, String prefix, int count, Set<String> acked)
            throws Exception {
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            sent.add(producer.send(new ProducerRecord<>("outage", i % 4, "k" + i, prefix + "-" + i)));
        }
        for (int i = 0; i < count; i++) {
            sent.get(i).get(60, TimeUnit.SECONDS);
            acked.add(prefix + "-" + i);
        }
    }

    @Test
    void oneServerLostIsHarmlessTheQuorumLostStopsAcknowledgementsUntilItIsBack() throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 2, Map.of())) {
            KafkaClients clients = cluster.clients();
            try (Admin admin = clients.admin()) {
                KafkaClients.createTopic(admin, "outage", 4, Map.of());
                await().atMost(Duration.ofSeconds(20)).until(() -> admin.describeTopics(List.of("outage")).allTopicNames()
                    .get().get("outage").partitions().stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty()));
            }
            Set<String> acked = new HashSet<>();
            List<InstanceSpec> servers = new ArrayList<>(cluster.zookeeper.getInstances());
            try (KafkaProducer<String, String> producer = clients.producer(Map.of(
                    ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 60_000))) {
                sendAcked(producer, "healthy", 100, acked);
                cluster.zookeeper.killServer(servers.get(0));
                sendAcked(producer, "one-server-down", 100, acked);

                cluster.zookeeper.killServer(servers.get(1));
                try (KafkaProducer<String, String> impatient = clients.producer(Map.of(
                        ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 4_000, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 2_000,
                        ProducerConfig.LINGER_MS_CONFIG, 0))) {
                    // Give the brokers a moment to see the connection go (SUSPENDED ends the lease at once).
                    Thread.sleep(1_000);
                    for (int p = 0; p < 4; p++) {
                        Future<RecordMetadata> f = impatient.send(new ProducerRecord<>("outage", p, "k", "quorum-lost"));
                        assertThatThrownBy(() -> f.get(30, TimeUnit.SECONDS)).as("partition %d", p)
                            .isInstanceOf(ExecutionException.class)
                            .cause().isInstanceOfAny(NotLeaderOrFollowerException.class, TimeoutException.class);
                    }
                }

                cluster.zookeeper.restartServer(servers.get(0));
                cluster.zookeeper.restartServer(servers.get(1));
                sendAcked(producer, "quorum-back", 100, acked);
            }
            assertThat(acked).hasSize(300);
            try (KafkaConsumer<String, String> consumer = cluster.clients().consumer()) {
                List<String> read = new ArrayList<>();
                for (int p = 0; p < 4; p++) {
                    KafkaClients.readAll(consumer, new TopicPartition("outage", p), Duration.ofSeconds(30)).stream()
                        .map(ConsumerRecord::value).filter(v -> !v.equals("quorum-lost")).forEach(read::add);
                }
                assertThat(read).as("every acknowledged record, once").containsExactlyInAnyOrderElementsOf(acked);
            }
        }
    }
}
