package io.kaas.broker.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kaas.broker.it.KafkaClients;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kafka-reassign-partitions} (Kafka's ReassignPartitionsCommand, in its own JVM as the script runs it) moves a
 * partition's single writer to another broker of a two-broker cluster: the move is carried out (the new writer leads
 * it at a higher epoch, with every record it had), {@code --verify} reports it completed, and the partition takes
 * writes on its new broker.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ReassignPartitionsIT {
    @TempDir
    Path dir;

    private record Run(int exitCode, String out) {
    }

    private static Run tool(String bootstrap, String... args) throws Exception {
        String classpath = System.getProperty("java.class.path");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", classpath, "org.apache.kafka.tools.reassign.ReassignPartitionsCommand", "--bootstrap-server",
            bootstrap));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("kafka-reassign-partitions " + String.join(" ", args) + " did not finish");
        }
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    private static int leader(Admin admin, TopicPartition tp) throws Exception {
        TopicDescription d = admin.describeTopics(List.of(tp.topic())).allTopicNames().get(10, TimeUnit.SECONDS)
            .get(tp.topic());
        var l = d.partitions().get(tp.partition()).leader();
        return l == null || l.isEmpty() ? -1 : l.id();
    }

    @Test
    void kafkaReassignPartitionsMovesAPartitionsWriterToAnotherBroker() throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 2, Map.of())) {
            KafkaClients clients = cluster.clients();
            TopicPartition tp = new TopicPartition("moving", 0);
            try (Admin admin = clients.admin()) {
                KafkaClients.createTopic(admin, "moving", 2, Map.of());
                await().atMost(Duration.ofSeconds(20)).until(() -> leader(admin, tp) > 0);
                try (KafkaProducer<String, String> producer = clients.producer()) {
                    for (int i = 0; i < 50; i++) {
                        producer.send(new ProducerRecord<>("moving", 0, "k" + i, "before-" + i));
                    }
                    producer.flush();
                }
                int from = leader(admin, tp);
                int to = from == 1 ? 2 : 1;
                int epoch = KafkaClients.leaderEpoch(admin, tp);
                Path plan = Files.writeString(dir.resolve("move.json"), "{\"version\":1,\"partitions\":[{\"topic\":"
                    + "\"moving\",\"partition\":0,\"replicas\":[" + to + "]}]}");

                Run execute = tool(clients.bootstrap(), "--execute", "--reassignment-json-file", plan.toString());
                assertThat(execute.exitCode()).as(execute.out()).isZero();
                assertThat(execute.out()).contains("Successfully started partition reassignment");

                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                    .until(() -> leader(admin, tp) == to);
                assertThat(KafkaClients.leaderEpoch(admin, tp)).as("taken over at a higher epoch").isGreaterThan(epoch);
                await().atMost(Duration.ofSeconds(20)).until(() ->
                    admin.listPartitionReassignments().reassignments().get(10, TimeUnit.SECONDS).isEmpty());

                Run verify = tool(clients.bootstrap(), "--verify", "--preserve-throttles", "--reassignment-json-file",
                    plan.toString());
                assertThat(verify.exitCode()).as(verify.out()).isZero();
                assertThat(verify.out()).contains("Reassignment of partition moving-0 is completed");

                try (KafkaProducer<String, String> producer = clients.producer()) {
                    producer.send(new ProducerRecord<>("moving", 0, "k", "after")).get(30, TimeUnit.SECONDS);
                }
            }
            try (KafkaConsumer<String, String> consumer = clients.consumer()) {
                List<String> values = KafkaClients.readAll(consumer, tp, Duration.ofSeconds(30)).stream()
                    .map(ConsumerRecord::value).toList();
                assertThat(values).hasSize(51).startsWith("before-0").endsWith("after");
            }
        }
    }
}
