package io.kaas.broker.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.kaas.broker.it.console.ConsoleHttp;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console of one broker of a two-broker cluster (ZooKeeper store): the overview lists both brokers with their
 * registered listeners, the topic page the leaders the Admin client sees, and the message browser answers 421
 * NOT_LEADER_OR_FOLLOWER naming the leader for a partition the other broker writes.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ConsoleClusterIT {

    @TempDir
    Path dir;

    @Test
    void aPartitionLedElsewhereIsAnswered421NamingItsLeader() throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 2, Map.of("auto.create.topics.enable", "false"));
             Admin admin = cluster.clients().admin()) {
            admin.createTopics(List.of(new NewTopic("spread", 4, (short) 1))).all().get(30, TimeUnit.SECONDS);
            Map<Integer, Integer> leaders = new TreeMap<>();
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                leaders.clear();
                for (TopicPartitionInfo p : admin.describeTopics(List.of("spread")).allTopicNames()
                        .get(10, TimeUnit.SECONDS).get("spread").partitions()) {
                    if (p.leader() != null && !p.leader().isEmpty()) {
                        leaders.put(p.partition(), p.leader().id());
                    }
                }
                return leaders.size() == 4 && leaders.containsValue(1) && leaders.containsValue(2);
            });
            ConsoleHttp http = new ConsoleHttp(cluster.broker(1).broker.adminPort());

            JsonNode overview = http.get("/api/v1/overview").json();
            assertThat(overview.get("brokers").findValuesAsText("id")).containsExactly("1", "2");
            JsonNode other = overview.get("brokers").get(1);
            assertThat(other.get("listeners").get(0).asText()).isEqualTo("PLAINTEXT://127.0.0.1:" + cluster.broker(2).port());
            assertThat(other.get("rack").asText()).isEqualTo("rack-2");
            assertThat(other.get("version").isNull()).isTrue();
            assertThat(other.get("uptimeMs").isNull()).isTrue();

            JsonNode topic = http.get("/api/v1/topics/spread").json();
            for (JsonNode p : topic.get("partitions")) {
                assertThat(p.get("leader").asInt()).isEqualTo(leaders.get(p.get("partition").asInt()));
            }
            int elsewhere = leaders.entrySet().stream().filter(e -> e.getValue() == 2).findFirst().orElseThrow().getKey();
            int here = leaders.entrySet().stream().filter(e -> e.getValue() == 1).findFirst().orElseThrow().getKey();
            for (JsonNode p : topic.get("partitions")) {
                boolean local = leaders.get(p.get("partition").asInt()) == 1;
                assertThat(p.get("endOffset").isNull()).as("partition %s led elsewhere", p.get("partition"))
                    .isEqualTo(!local);
            }
            ConsoleHttp.Reply r = http.get("/api/v1/topics/spread/messages?partition=" + elsewhere);
            assertThat(r.status()).as(r.toString()).isEqualTo(421);
            assertThat(r.error()).isEqualTo("NOT_LEADER_OR_FOLLOWER");
            assertThat(r.json().get("leader").get("id").asInt()).isEqualTo(2);
            assertThat(r.json().get("leader").get("port").asInt()).isEqualTo(cluster.broker(2).port());
            assertThat(r.message()).contains("partition " + elsewhere + " of topic 'spread' is led by broker 2");
            assertThat(http.get("/api/v1/topics/spread/messages?partition=" + here).status()).isEqualTo(200);
            ConsoleHttp.Reply fromTwo = new ConsoleHttp(cluster.broker(2).broker.adminPort())
                .get("/api/v1/topics/spread/messages?partition=" + elsewhere);
            assertThat(fromTwo.status()).as(fromTwo.toString()).isEqualTo(200);
        }
    }
}
