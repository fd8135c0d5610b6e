package io.kaas.broker.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.kaas.broker.it.console.ConsoleHttp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console of broker 1 of a two-broker cluster (ZooKeeper store, the acl authorizer) shows the whole cluster: a
 * topic spread over both brokers with every partition's offsets, count and size, the messages of a partition broker
 * 2 leads, a group broker 2 coordinates with its member and lag, and the actions on broker 2's partition and group,
 * all asked of broker 2 over the inter-broker listener. A user without the ACLs gets 403 and nothing reaches broker 2
 * (its request counters do not move); a user who may describe the group but not its topic sees none of its committed
 * offsets. Broker 2 is reached through a relay that is frozen at the end: the topic page
 * still loads, its partitions' rows saying broker 2 did not answer.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class ConsoleClusterIT {

    private static final String TOPIC = "spread";
    private static final int PER_PARTITION = 5;
    private static final List<String> FORWARDED = List.of("ListOffsets", "FetchConsumer", "DescribeLogDirs",
        "DescribeGroups", "OffsetFetch", "Produce", "DeleteRecords", "OffsetCommit");

    @TempDir
    Path dir;

    @Test
    void oneBrokersConsoleShowsTheWholeCluster() throws Exception {
        TestCluster[] holder = new TestCluster[1];
        try (FreezableProxy proxy = new FreezableProxy(() -> holder[0].broker(2).port());
             TestCluster cluster = TestCluster.ensemble(dir, Map.of("auto.create.topics.enable", "false",
                 "offsets.topic.num.partitions", "4", "authorizer", "acl",
                 "super.users", "User:ANONYMOUS;User:admin"))) {
            holder[0] = cluster;
            cluster.startBroker(1);
            // Broker 2 advertises the relay: every request to it (the inter-broker ones too) goes through it.
            cluster.startBroker(2, Map.of("advertised.listeners", "PLAINTEXT://127.0.0.1:" + proxy.port()));
            try (Admin admin = cluster.clients().admin()) {
                admin.alterUserScramCredentials(List.of(
                    new UserScramCredentialUpsertion("admin", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256,
                        4096), "admin-secret"),
                    new UserScramCredentialUpsertion("nobody", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256,
                        4096), "nobody-secret"),
                    new UserScramCredentialUpsertion("grouponly", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256,
                        4096), "grouponly-secret"))).all().get(30, TimeUnit.SECONDS);
                admin.createTopics(List.of(new NewTopic(TOPIC, 4, (short) 1))).all().get(30, TimeUnit.SECONDS);
                Map<Integer, Integer> leaders = spreadLeaders(admin);
                int elsewhere = leaders.entrySet().stream().filter(e -> e.getValue() == 2).findFirst().orElseThrow()
                    .getKey();
                try (KafkaProducer<String, String> producer = cluster.clients().producer()) {
                    for (int p = 0; p < 4; p++) {
                        for (int i = 0; i < PER_PARTITION; i++) {
                            producer.send(new ProducerRecord<>(TOPIC, p, "k" + p + "-" + i, "v" + i));
                        }
                    }
                    producer.flush();
                }
                ConsoleHttp http = new ConsoleHttp(cluster.broker(1).broker.adminPort()).as("admin", "admin-secret");

                JsonNode overview = http.get("/api/v1/overview").json();
                assertThat(overview.get("brokers").findValuesAsText("id")).containsExactly("1", "2");
                JsonNode other = overview.get("brokers").get(1);
                assertThat(other.get("listeners").get(0).asText()).isEqualTo("PLAINTEXT://127.0.0.1:" + proxy.port());
                assertThat(other.get("rack").asText()).isEqualTo("rack-2");
                // Broker 2's version and uptime, from its registration.
                assertThat(other.get("version").asText()).isEqualTo(overview.get("brokers").get(0).get("version").asText());
                assertThat(other.get("uptimeMs").asLong()).isPositive();

                everyPartitionIsShown(http, leaders);
                messagesOfBrokerTwo(http, elsewhere);
                String group = groupOfBrokerTwo(cluster, admin, http);
                actionsReachBrokerTwo(http, elsewhere, group);
                nobodyGetsForbiddenAndNothingIsForwarded(cluster, http, elsewhere, group);
                aGroupOnlyUserSeesNoOffsetsOfTopicsItMayNotDescribe(cluster, admin, group);
                aFrozenBrokerTwoMakesRowsSaySo(proxy, http, leaders, elsewhere, group);
            }
        }
    }

    private static Map<Integer, Integer> spreadLeaders(Admin admin) {
        Map<Integer, Integer> leaders = new TreeMap<>();
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            leaders.clear();
            for (TopicPartitionInfo p : admin.describeTopics(List.of(TOPIC)).allTopicNames()
                    .get(10, TimeUnit.SECONDS).get(TOPIC).partitions()) {
                if (p.leader() != null && !p.leader().isEmpty()) {
                    leaders.put(p.partition(), p.leader().id());
                }
            }
            return leaders.size() == 4 && leaders.containsValue(1) && leaders.containsValue(2);
        });
        return leaders;
    }

    private static void everyPartitionIsShown(ConsoleHttp http, Map<Integer, Integer> leaders) throws Exception {
        JsonNode topic = http.get("/api/v1/topics/" + TOPIC).json();
        assertThat(topic.get("partitions")).hasSize(4);
        for (JsonNode p : topic.get("partitions")) {
            assertThat(p.get("leader").asInt()).isEqualTo(leaders.get(p.get("partition").asInt()));
            assertThat(p.get("startOffset").asLong()).as(p.toString()).isZero();
            assertThat(p.get("endOffset").asLong()).as(p.toString()).isEqualTo(PER_PARTITION);
            assertThat(p.get("sizeBytes").asLong()).as(p.toString()).isPositive();
            assertThat(p.get("error").isNull()).as(p.toString()).isTrue();
        }
        JsonNode row = http.get("/api/v1/topics?q=" + TOPIC).json().get("topics").get(0);
        assertThat(row.get("messages").asLong()).isEqualTo(4L * PER_PARTITION);
        long sum = 0;
        for (JsonNode p : topic.get("partitions")) {
            sum += p.get("sizeBytes").asLong();
        }
        assertThat(row.get("sizeBytes").asLong()).isEqualTo(sum);
        assertThat(row.get("lastWriteMs").asLong()).isPositive();
        assertThat(row.get("error").isNull()).isTrue();
    }

    private static void messagesOfBrokerTwo(ConsoleHttp http, int elsewhere) throws Exception {
        ConsoleHttp.Reply r = http.get("/api/v1/topics/" + TOPIC + "/messages?partition=" + elsewhere);
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        JsonNode messages = r.json().get("messages");
        assertThat(messages).hasSize(PER_PARTITION);
        assertThat(messages.get(0).get("key").get("text").asText()).isEqualTo("k" + elsewhere + "-" + (PER_PARTITION - 1));
        ConsoleHttp.Reply one = http.get("/api/v1/topics/" + TOPIC + "/partitions/" + elsewhere + "/messages/2");
        assertThat(one.status()).as(one.toString()).isEqualTo(200);
        assertThat(one.json().get("value").get("text").asText()).isEqualTo("v2");
        ConsoleHttp.Reply all = http.get("/api/v1/topics/" + TOPIC + "/messages");
        assertThat(all.json().get("messages")).hasSize(4 * PER_PARTITION);
        assertThat(all.json().get("errors")).isEmpty();
        assertThat(http.get("/api/v1/topics/" + TOPIC + "/messages?partition=" + elsewhere + "&from=offset&offset=9")
            .status()).isEqualTo(416);
    }

    /** A group broker 2 coordinates, with one member and committed offsets 2 of 5: lag 3 a partition. */
    private static String groupOfBrokerTwo(TestCluster cluster, Admin admin, ConsoleHttp http) throws Exception {
        // FindCoordinator creates __consumer_offsets; a group lives on partition abs(hash(id)) % 4 of it.
        admin.listConsumerGroupOffsets("console-probe").partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
        Map<Integer, Integer> offsetsLeaders = new TreeMap<>();
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> {
            offsetsLeaders.clear();
            for (TopicPartitionInfo p : admin.describeTopics(List.of("__consumer_offsets")).allTopicNames()
                    .get(10, TimeUnit.SECONDS).get("__consumer_offsets").partitions()) {
                if (p.leader() != null && !p.leader().isEmpty()) {
                    offsetsLeaders.put(p.partition(), p.leader().id());
                }
            }
            return offsetsLeaders.size() == 4 && offsetsLeaders.containsValue(2);
        });
        String[] found = new String[1];
        for (int i = 0; found[0] == null; i++) {
            String candidate = "console-group-" + i;
            int h = candidate.hashCode();
            if (offsetsLeaders.get((h == Integer.MIN_VALUE ? 0 : Math.abs(h)) % 4) == 2) {
                found[0] = candidate;
            }
        }
        String group = found[0];
        try (KafkaConsumer<String, String> consumer = cluster.clients().groupConsumer(group, Map.of())) {
            consumer.subscribe(List.of(TOPIC));
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                consumer.poll(Duration.ofMillis(200));
                return consumer.assignment().size() == 4;
            });
            Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
            for (int p = 0; p < 4; p++) {
                commit.put(new TopicPartition(TOPIC, p), new OffsetAndMetadata(2));
            }
            consumer.commitSync(commit, Duration.ofSeconds(20));

            ConsoleHttp.Reply r = http.get("/api/v1/groups/" + group);
            assertThat(r.status()).as(r.toString()).isEqualTo(200);
            JsonNode g = r.json();
            assertThat(g.get("coordinator").asInt()).isEqualTo(2);
            assertThat(g.get("state").asText()).isEqualTo("Stable");
            assertThat(g.get("members")).hasSize(1);
            assertThat(g.get("members").get(0).get("assignments")).hasSize(4);
            assertThat(g.get("offsets")).hasSize(4);
            for (JsonNode o : g.get("offsets")) {
                assertThat(o.get("committed").asLong()).isEqualTo(2);
                assertThat(o.get("endOffset").asLong()).isEqualTo(PER_PARTITION);
                assertThat(o.get("lag").asLong()).isEqualTo(PER_PARTITION - 2);
            }
            assertThat(g.get("totalLag").asLong()).isEqualTo(4L * (PER_PARTITION - 2));
            JsonNode listed = null;
            for (JsonNode row : http.get("/api/v1/groups").json().get("groups")) {
                if (row.get("groupId").asText().equals(group)) {
                    listed = row;
                }
            }
            assertThat(listed).as("group %s in the list", group).isNotNull();
            assertThat(listed.get("members").asInt()).isEqualTo(1);
            assertThat(listed.get("totalLag").asLong()).isEqualTo(4L * (PER_PARTITION - 2));
        }
        return group;
    }

    private static void actionsReachBrokerTwo(ConsoleHttp http, int elsewhere, String group) throws Exception {
        ConsoleHttp.Reply produced = http.post("/api/v1/topics/" + TOPIC + "/messages",
            Map.of("partition", elsewhere, "key", "console", "value", "hello", "headers", Map.of("h", "x")));
        assertThat(produced.status()).as(produced.toString()).isEqualTo(201);
        assertThat(produced.json().get("offset").asLong()).isEqualTo(PER_PARTITION);
        JsonNode m = http.get("/api/v1/topics/" + TOPIC + "/partitions/" + elsewhere + "/messages/" + PER_PARTITION)
            .json();
        assertThat(m.get("value").get("text").asText()).isEqualTo("hello");
        assertThat(m.get("headers").get(0).get("value").get("text").asText()).isEqualTo("x");

        ConsoleHttp.Reply deleted = http.post("/api/v1/topics/" + TOPIC + "/delete-records",
            Map.of("partition", elsewhere, "beforeOffset", 1));
        assertThat(deleted.status()).as(deleted.toString()).isEqualTo(200);
        assertThat(deleted.json().get("lowWatermark").asLong()).isEqualTo(1);

        // The consumer left (closed): the group is empty, its offsets can be reset.
        await().atMost(Duration.ofSeconds(30)).until(() -> http.get("/api/v1/groups/" + group).json()
            .get("members").isEmpty());
        ConsoleHttp.Reply reset = http.post("/api/v1/groups/" + group + "/reset-offsets",
            Map.of("topic", TOPIC, "partitions", List.of(elsewhere), "to", "earliest"));
        assertThat(reset.status()).as(reset.toString()).isEqualTo(200);
        assertThat(reset.json().get("offsets").get(0).get("offset").asLong()).isEqualTo(1);
        JsonNode offsets = http.get("/api/v1/groups/" + group).json().get("offsets");
        for (JsonNode o : offsets) {
            if (o.get("partition").asInt() == elsewhere) {
                assertThat(o.get("committed").asLong()).isEqualTo(1);
            }
        }
    }

    private static void nobodyGetsForbiddenAndNothingIsForwarded(TestCluster cluster, ConsoleHttp admin,
                                                                 int elsewhere, String group) throws Exception {
        int metricsPort = cluster.broker(2).broker.adminPort();
        Map<String, Double> before = requestCounts(metricsPort);
        ConsoleHttp nobody = new ConsoleHttp(cluster.broker(1).broker.adminPort()).as("nobody", "nobody-secret");
        assertThat(nobody.get("/api/v1/topics/" + TOPIC).status()).isEqualTo(403);
        assertThat(nobody.get("/api/v1/topics/" + TOPIC + "/messages?partition=" + elsewhere).status()).isEqualTo(403);
        assertThat(nobody.get("/api/v1/topics/" + TOPIC + "/partitions/" + elsewhere + "/messages/2").status())
            .isEqualTo(403);
        assertThat(nobody.get("/api/v1/groups/" + group).status()).isEqualTo(403);
        ConsoleHttp.Reply groups = nobody.get("/api/v1/groups");
        assertThat(groups.status()).isEqualTo(200);
        assertThat(groups.json().get("groups").findValuesAsText("groupId")).doesNotContain(group);
        assertThat(nobody.get("/api/v1/topics").json().get("topics")).isEmpty();
        assertThat(nobody.post("/api/v1/topics/" + TOPIC + "/messages", Map.of("partition", elsewhere, "value", "no"))
            .status()).isEqualTo(403);
        assertThat(nobody.post("/api/v1/topics/" + TOPIC + "/delete-records",
            Map.of("partition", elsewhere, "beforeOffset", 2)).status()).isEqualTo(403);
        assertThat(nobody.post("/api/v1/groups/" + group + "/reset-offsets",
            Map.of("topic", TOPIC, "to", "latest")).status()).isEqualTo(403);
        Map<String, Double> after = requestCounts(metricsPort);
        for (String api : FORWARDED) {
            assertThat(after.getOrDefault(api, 0.0)).as("%s requests broker 2 answered", api)
                .isEqualTo(before.getOrDefault(api, 0.0));
        }
        // Nothing changed: the start offset is still 1, the committed offset still 1.
        JsonNode p = partition(admin.get("/api/v1/topics/" + TOPIC).json(), elsewhere);
        assertThat(p.get("startOffset").asLong()).isEqualTo(1);
        assertThat(p.get("endOffset").asLong()).isEqualTo(PER_PARTITION + 1);
    }

    /** Broker 2 answers this broker every committed offset: those of topics the user may not describe are left out. */
    private static void aGroupOnlyUserSeesNoOffsetsOfTopicsItMayNotDescribe(TestCluster cluster, Admin admin,
                                                                           String group) throws Exception {
        admin.createAcls(List.of(new AclBinding(new ResourcePattern(ResourceType.GROUP, group, PatternType.LITERAL),
            new AccessControlEntry("User:grouponly", "*", AclOperation.DESCRIBE, AclPermissionType.ALLOW))))
            .all().get(30, TimeUnit.SECONDS);
        ConsoleHttp user = new ConsoleHttp(cluster.broker(1).broker.adminPort()).as("grouponly", "grouponly-secret");
        ConsoleHttp.Reply[] r = new ConsoleHttp.Reply[1];
        await().atMost(Duration.ofSeconds(20)).until(() -> (r[0] = user.get("/api/v1/groups/" + group)).status() == 200);
        assertThat(r[0].json().get("coordinator").asInt()).isEqualTo(2);
        assertThat(r[0].json().get("offsets")).as(r[0].toString()).isEmpty();
        assertThat(r[0].json().get("totalLag").asLong()).isZero();
        assertThat(user.get("/api/v1/groups").json().get("groups").findValuesAsText("groupId")).containsExactly(group);
    }

    private static void aFrozenBrokerTwoMakesRowsSaySo(FreezableProxy proxy, ConsoleHttp http,
                                                       Map<Integer, Integer> leaders, int elsewhere, String group)
            throws Exception {
        proxy.freeze();
        long t0 = System.nanoTime();
        ConsoleHttp.Reply topic = http.get("/api/v1/topics/" + TOPIC);
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertThat(topic.status()).as(topic.toString()).isEqualTo(200);
        assertThat(tookMs).as("the topic page's time with broker 2 frozen").isLessThan(15_000);
        for (JsonNode p : topic.json().get("partitions")) {
            if (leaders.get(p.get("partition").asInt()) == 2) {
                assertThat(p.get("error").asText()).isEqualTo("broker 2 did not answer in 5000 ms");
                assertThat(p.get("endOffset").isNull()).isTrue();
            } else {
                assertThat(p.get("error").isNull()).as(p.toString()).isTrue();
                assertThat(p.get("endOffset").asLong()).isEqualTo(PER_PARTITION);
            }
        }
        ConsoleHttp.Reply one = http.get("/api/v1/topics/" + TOPIC + "/messages?partition=" + elsewhere);
        assertThat(one.status()).as(one.toString()).isEqualTo(504);
        assertThat(one.error()).isEqualTo("NETWORK_EXCEPTION");
        assertThat(one.message()).isEqualTo("broker 2 did not answer in 5000 ms");
        ConsoleHttp.Reply all = http.get("/api/v1/topics/" + TOPIC + "/messages");
        assertThat(all.status()).as(all.toString()).isEqualTo(200);
        assertThat(all.json().get("errors").findValuesAsText("partition")).contains(Integer.toString(elsewhere));
        long local = leaders.values().stream().filter(l -> l == 1).count();
        assertThat(all.json().get("messages")).hasSize((int) local * PER_PARTITION);
        ConsoleHttp.Reply groups = http.get("/api/v1/groups");
        assertThat(groups.status()).as(groups.toString()).isEqualTo(200);
        assertThat(groups.json().get("errors").get(0).get("error").asText())
            .isEqualTo("broker 2 did not answer in 5000 ms");
        ConsoleHttp.Reply g = http.get("/api/v1/groups/" + group);
        assertThat(g.status()).as(g.toString()).isEqualTo(504);
        assertThat(g.message()).contains("broker 2 did not answer in 5000 ms");
    }

    private static JsonNode partition(JsonNode topic, int partition) {
        for (JsonNode p : topic.get("partitions")) {
            if (p.get("partition").asInt() == partition) {
                return p;
            }
        }
        throw new AssertionError("no partition " + partition + " in " + topic);
    }

    /** Broker {@code port}'s kafka_network_requestmetrics_requests_total, summed over versions, by request. */
    private static Map<String, Double> requestCounts(int port) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + port + "/metrics")).timeout(Duration.ofSeconds(20)).build(),
            HttpResponse.BodyHandlers.ofString());
        Map<String, Double> out = new HashMap<>();
        Matcher m = Pattern.compile("(?m)^kafka_network_requestmetrics_requests_total\\{([^}]*)\\} (\\S+)$")
            .matcher(r.body());
        Pattern request = Pattern.compile("request=\"([^\"]+)\"");
        while (m.find()) {
            Matcher name = request.matcher(m.group(1));
            if (name.find()) {
                out.merge(name.group(1), Double.parseDouble(m.group(2)), Double::sum);
            }
        }
        assertThat(out).as("request counters of broker at admin port %s", port).isNotEmpty();
        return out;
    }
}
