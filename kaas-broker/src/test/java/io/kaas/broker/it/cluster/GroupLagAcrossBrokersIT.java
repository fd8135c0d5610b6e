package io.kaas.broker.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kafka_consumergroup_lag} on the group's coordinator covers every partition the group committed offsets
 * for, those another broker writes included (their end offsets asked of that broker, off the scrape path).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class GroupLagAcrossBrokersIT {
    private static final int PARTITIONS = 4;

    @TempDir
    Path dir;

    @Test
    void theCoordinatorReportsLagOnPartitionsAnotherBrokerWrites() throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 2, Map.of("offsets.topic.num.partitions", "2"));
             Admin admin = cluster.clients().admin()) {
            cluster.clients().createTopic("lagged", PARTITIONS);
            try (KafkaProducer<String, String> producer = cluster.clients().producer()) {
                for (int p = 0; p < PARTITIONS; p++) {
                    for (int i = 0; i < 10; i++) {
                        producer.send(new ProducerRecord<>("lagged", p, "k", "v"));
                    }
                }
                producer.flush();
            }
            Map<TopicPartition, OffsetAndMetadata> committed = new HashMap<>();
            for (int p = 0; p < PARTITIONS; p++) {
                committed.put(new TopicPartition("lagged", p), new OffsetAndMetadata(3));
            }
            admin.alterConsumerGroupOffsets("billing", committed).all().get(30, TimeUnit.SECONDS);
            int coordinator = admin.describeConsumerGroups(List.of("billing")).all().get(30, TimeUnit.SECONDS)
                    .get("billing").coordinator().id();
            Set<Integer> writers = admin.describeTopics(List.of("lagged")).allTopicNames().get(30, TimeUnit.SECONDS)
                    .get("lagged").partitions().stream().map(TopicPartitionInfo::leader).map(n -> n.id())
                    .collect(Collectors.toSet());
            assertThat(writers).as("the partitions are spread over both brokers").hasSize(2);

            int adminPort = cluster.broker(coordinator).broker.adminPort();
            Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                String scrape = scrape(adminPort);
                for (int p = 0; p < PARTITIONS; p++) {
                    assertThat(sample(scrape, "kafka_consumergroup_lag", Map.of("consumergroup", "billing",
                            "topic", "lagged", "partition", String.valueOf(p))))
                            .as("partition %d", p).hasValue(7.0);
                }
            });
        }
    }

    private static String scrape(int port) throws Exception {
        HttpURLConnection c = (HttpURLConnection) URI.create("http://127.0.0.1:" + port + "/metrics").toURL()
                .openConnection();
        c.setConnectTimeout(5_000);
        c.setReadTimeout(10_000);
        try (InputStream in = c.getInputStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } finally {
            c.disconnect();
        }
    }

    private static OptionalDouble sample(String scrape, String name, Map<String, String> labels) {
        Pattern line = Pattern.compile("^" + Pattern.quote(name) + "\\{([^}]*)\\} (\\S+)$", Pattern.MULTILINE);
        Matcher m = line.matcher(scrape);
        while (m.find()) {
            String l = m.group(1);
            if (labels.entrySet().stream().allMatch(e -> l.contains(e.getKey() + "=\"" + e.getValue() + "\""))) {
                return OptionalDouble.of(Double.parseDouble(m.group(2)));
            }
        }
        return OptionalDouble.empty();
    }
}
