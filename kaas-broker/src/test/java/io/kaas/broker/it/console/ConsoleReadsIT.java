package io.kaas.broker.it.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.kaas.broker.it.TestBroker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console's read routes against what the Kafka Admin client says of the same broker: the overview, the topic
 * table and a topic's partitions and configs, the message browser (newest, from an offset, from a timestamp; text,
 * JSON and hex; truncation and the untruncated single message; headers; an aborted transaction's records not shown)
 * and the consumer groups with their lag; and the errors of unknown topics, groups and offsets.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConsoleReadsIT {

    private static final String TOPIC = "orders";
    private static final String TXN_TOPIC = "payments";
    private static final String GROUP = "billing";

    @TempDir
    static Path dir;
    static TestBroker broker;
    static Admin admin;
    static ConsoleHttp http;
    static long firstTimestamp;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.builder(dir).noInitialRebalanceDelay().config("auto.create.topics.enable", "false").start();
        admin = broker.admin();
        http = new ConsoleHttp(broker.broker.adminPort());
        broker.createTopic(TOPIC, 3, Map.of("retention.ms", "3600000"));
        broker.createTopic(TXN_TOPIC, 1);
        firstTimestamp = System.currentTimeMillis() - 60_000;
        try (KafkaProducer<byte[], byte[]> p = broker.bytesProducer(Map.of())) {
            for (int i = 0; i < 20; i++) {
                p.send(new ProducerRecord<>(TOPIC, 0, firstTimestamp + i * 1000L, bytes("k" + i), bytes("value-" + i)))
                    .get(20, TimeUnit.SECONDS);
            }
            p.send(new ProducerRecord<byte[], byte[]>(TOPIC, 1, (byte[]) null, bytes("{\"id\":7,\"items\":[1,2]}"),
                List.<org.apache.kafka.common.header.Header>of(new RecordHeader("trace", bytes("abc")),
                    new RecordHeader("bin", new byte[] {0, 1, 2}))))
                .get(20, TimeUnit.SECONDS);
            p.send(new ProducerRecord<>(TOPIC, 1, bytes("bin"), new byte[] {(byte) 0xff, 0, 1, 2})).get(20, TimeUnit.SECONDS);
            p.send(new ProducerRecord<>(TOPIC, 1, bytes("big"), bytes("x".repeat(10_000)))).get(20, TimeUnit.SECONDS);
        }
        Map<String, Object> txn = new HashMap<>();
        txn.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "console-txn");
        try (KafkaProducer<String, String> p = broker.producer(txn)) {
            p.initTransactions();
            p.beginTransaction();
            p.send(new ProducerRecord<>(TXN_TOPIC, 0, "a", "committed-1"));
            p.commitTransaction();
            p.beginTransaction();
            p.send(new ProducerRecord<>(TXN_TOPIC, 0, "b", "aborted-1"));
            p.send(new ProducerRecord<>(TXN_TOPIC, 0, "c", "aborted-2"));
            p.flush();
            p.abortTransaction();
            p.beginTransaction();
            p.send(new ProducerRecord<>(TXN_TOPIC, 0, "d", "committed-2"));
            p.commitTransaction();
        }
        try (KafkaConsumer<String, String> c = broker.groupConsumer(GROUP, Map.of("enable.auto.commit", "false"))) {
            c.assign(List.of(new TopicPartition(TOPIC, 0)));
            c.commitSync(Map.of(new TopicPartition(TOPIC, 0), new OffsetAndMetadata(5)));
        }
    }

    @AfterAll
    static void stop() {
        if (admin != null) {
            admin.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static Map<TopicPartition, Long> offsets(String topic, int partitions, OffsetSpec spec) throws Exception {
        Map<TopicPartition, OffsetSpec> ask = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            ask.put(new TopicPartition(topic, p), spec);
        }
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> r = admin.listOffsets(ask).all()
            .get(20, TimeUnit.SECONDS);
        return r.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
    }

    @Test
    void overviewShowsTheClusterAsTheAdminClientDoes() throws Exception {
        ConsoleHttp.Reply r = http.get("/api/v1/overview");
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        assertThat(r.header("Content-Type")).isEqualTo("application/json; charset=utf-8");
        assertThat(r.header("Cache-Control")).isEqualTo("no-store");
        JsonNode o = r.json();
        assertThat(o.get("clusterId").asText()).isEqualTo(admin.describeCluster().clusterId().get(20, TimeUnit.SECONDS));
        assertThat(o.get("controllerId").asInt())
            .isEqualTo(admin.describeCluster().controller().get(20, TimeUnit.SECONDS).id());
        assertThat(o.get("self").asInt()).isEqualTo(1);
        JsonNode b = o.get("brokers").get(0);
        assertThat(b.get("id").asInt()).isEqualTo(1);
        assertThat(b.get("port").asInt()).isEqualTo(broker.port());
        assertThat(b.get("listeners").get(0).asText()).isEqualTo("PLAINTEXT://127.0.0.1:" + broker.port());
        assertThat(b.get("controller").asBoolean()).isTrue();
        assertThat(b.get("partitionsLed").asInt()).isGreaterThanOrEqualTo(4);
        assertThat(b.get("uptimeMs").asLong()).isPositive();
        assertThat(o.get("storageEngine").get("name").asText()).isEqualTo("segments");
        assertThat(o.get("clusterStore").get("name").asText()).isEqualTo("files");
        assertThat(o.get("authorizer").asText()).isEqualTo("none");
        assertThat(o.get("plugins").findValuesAsText("id")).contains("segments", "files");
        JsonNode dir0 = o.get("logDirs").get(0);
        assertThat(dir0.get("totalBytes").asLong()).isPositive();
        assertThat(dir0.get("usedBytes").asLong()).isPositive();
    }

    @Test
    void topicTableCountsMessagesAsTheAdminClientsOffsets() throws Exception {
        ConsoleHttp.Reply r = http.get("/api/v1/topics");
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        Map<String, JsonNode> byName = new HashMap<>();
        r.json().get("topics").forEach(t -> byName.put(t.get("name").asText(), t));
        assertThat(byName).containsKeys(TOPIC, TXN_TOPIC).doesNotContainKey("__consumer_offsets");
        Map<TopicPartition, Long> start = offsets(TOPIC, 3, OffsetSpec.earliest());
        Map<TopicPartition, Long> end = offsets(TOPIC, 3, OffsetSpec.latest());
        long expected = 0;
        for (TopicPartition tp : end.keySet()) {
            expected += end.get(tp) - start.get(tp);
        }
        JsonNode orders = byName.get(TOPIC);
        assertThat(orders.get("messages").asLong()).isEqualTo(expected).isEqualTo(23);
        assertThat(orders.get("partitions").asInt()).isEqualTo(3);
        assertThat(orders.get("retentionMs").asLong()).isEqualTo(3600000L);
        assertThat(orders.get("cleanupPolicy").asText()).isEqualTo("delete");
        assertThat(orders.get("sizeBytes").asLong()).isPositive();
        assertThat(orders.get("lastWriteMs").asLong()).isGreaterThan(firstTimestamp);

        assertThat(http.get("/api/v1/topics?q=PAY").json().get("topics").findValuesAsText("name"))
            .containsExactly(TXN_TOPIC);
        assertThat(http.get("/api/v1/topics?internal=true").json().get("topics").findValuesAsText("name"))
            .contains("__consumer_offsets");
    }

    @Test
    void topicDetailHasTheAdminClientsOffsetsAndConfigSources() throws Exception {
        ConsoleHttp.Reply r = http.get("/api/v1/topics/" + TOPIC);
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        JsonNode t = r.json();
        assertThat(t.get("topicId").asText()).isEqualTo(admin.describeTopics(List.of(TOPIC)).allTopicNames()
            .get(20, TimeUnit.SECONDS).get(TOPIC).topicId().toString());
        Map<TopicPartition, Long> start = offsets(TOPIC, 3, OffsetSpec.earliest());
        Map<TopicPartition, Long> end = offsets(TOPIC, 3, OffsetSpec.latest());
        assertThat(t.get("partitions")).hasSize(3);
        for (JsonNode p : t.get("partitions")) {
            TopicPartition tp = new TopicPartition(TOPIC, p.get("partition").asInt());
            assertThat(p.get("startOffset").asLong()).isEqualTo(start.get(tp));
            assertThat(p.get("endOffset").asLong()).isEqualTo(end.get(tp));
            assertThat(p.get("leader").asInt()).isEqualTo(1);
        }
        Config config = admin.describeConfigs(List.of(new ConfigResource(ConfigResource.Type.TOPIC, TOPIC))).all()
            .get(20, TimeUnit.SECONDS).values().iterator().next();
        Map<String, String> sources = new HashMap<>();
        Map<String, String> values = new HashMap<>();
        t.get("configs").forEach(c -> {
            sources.put(c.get("name").asText(), c.get("source").asText());
            values.put(c.get("name").asText(), c.get("value").isNull() ? null : c.get("value").asText());
        });
        assertThat(sources.keySet()).isEqualTo(config.entries().stream().map(ConfigEntry::name).collect(Collectors.toSet()));
        for (ConfigEntry e : config.entries()) {
            assertThat(sources.get(e.name())).as(e.name()).isEqualTo(e.source().name());
            assertThat(values.get(e.name())).as(e.name()).isEqualTo(e.value());
        }
        assertThat(sources.get("retention.ms")).isEqualTo("DYNAMIC_TOPIC_CONFIG");
    }

    @Test
    void unknownTopicIsA404NamingIt() throws Exception {
        ConsoleHttp.Reply r = http.get("/api/v1/topics/nope");
        assertThat(r.status()).isEqualTo(404);
        assertThat(r.error()).isEqualTo("UNKNOWN_TOPIC_OR_PARTITION");
        assertThat(r.message()).isEqualTo("topic 'nope' does not exist");
        assertThat(http.get("/api/v1/topics/nope/messages").status()).isEqualTo(404);
        ConsoleHttp.Reply route = http.get("/api/v1/nothing");
        assertThat(route.status()).isEqualTo(404);
        assertThat(route.error()).isEqualTo("NOT_FOUND");
        assertThat(admin.listTopics().names().get(20, TimeUnit.SECONDS)).doesNotContain("nope");
    }

    @Test
    void rootRedirectsToTheConsole() throws Exception {
        ConsoleHttp.Reply r = http.get("/");
        assertThat(r.status()).isEqualTo(302);
        assertThat(r.header("Location")).isEqualTo("/console/");
        assertThat(http.get("/health").status()).isEqualTo(200);
    }

    // -- the message browser --

    @Test
    void newestMessagesOfOnePartitionComeNewestFirst() throws Exception {
        ConsoleHttp.Reply r = http.get("/api/v1/topics/" + TOPIC + "/messages?partition=0&limit=5");
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        JsonNode m = r.json().get("messages");
        assertThat(m).hasSize(5);
        assertThat(m.get(0).get("offset").asLong()).isEqualTo(19);
        assertThat(m.get(0).get("key").get("text").asText()).isEqualTo("k19");
        assertThat(m.get(0).get("value").get("encoding").asText()).isEqualTo("text");
        assertThat(m.get(0).get("value").get("text").asText()).isEqualTo("value-19");
        assertThat(m.get(0).get("timestamp").asLong()).isEqualTo(firstTimestamp + 19_000);
        assertThat(m.get(0).get("timestampType").asText()).isEqualTo("CREATE_TIME");
        assertThat(m.get(4).get("offset").asLong()).isEqualTo(15);
        assertThat(r.json().get("next").get("partition").get("0").asLong()).isEqualTo(20);
    }

    @Test
    void fromAnOffsetAndFromATimestamp() throws Exception {
        JsonNode m = http.get("/api/v1/topics/" + TOPIC + "/messages?partition=0&from=offset&offset=7&limit=3")
            .json().get("messages");
        assertThat(m.findValuesAsText("offset")).containsExactly("7", "8", "9");
        JsonNode t = http.get("/api/v1/topics/" + TOPIC + "/messages?partition=0&from=timestamp&timestamp="
            + (firstTimestamp + 12_500) + "&limit=2").json().get("messages");
        assertThat(t.findValuesAsText("offset")).containsExactly("13", "14");
    }

    @Test
    void jsonHexHeadersAndTruncation() throws Exception {
        JsonNode m = http.get("/api/v1/topics/" + TOPIC + "/messages?partition=1&from=offset&offset=0&maxBytes=100")
            .json().get("messages");
        assertThat(m).hasSize(3);
        JsonNode json = m.get(0);
        assertThat(json.get("key")).isEqualTo(ConsoleHttp.JSON.nullNode());
        assertThat(json.get("value").get("encoding").asText()).isEqualTo("json");
        assertThat(json.get("value").get("text").asText()).contains("\"items\" : [ 1, 2 ]");
        assertThat(json.get("headers").get(0).get("key").asText()).isEqualTo("trace");
        assertThat(json.get("headers").get(0).get("value").get("text").asText()).isEqualTo("abc");
        assertThat(json.get("headers").get(1).get("value").get("encoding").asText()).isEqualTo("hex");
        assertThat(json.get("headers").get(1).get("value").get("text").asText()).isEqualTo("000102");
        JsonNode bin = m.get(1);
        assertThat(bin.get("value").get("encoding").asText()).isEqualTo("hex");
        assertThat(bin.get("value").get("text").asText()).isEqualTo("ff000102");
        JsonNode big = m.get(2);
        assertThat(big.get("value").get("truncated").asBoolean()).isTrue();
        assertThat(big.get("value").get("sizeBytes").asInt()).isEqualTo(10_000);
        assertThat(big.get("value").get("text").asText()).hasSize(100);

        ConsoleHttp.Reply all = http.get("/api/v1/topics/" + TOPIC + "/partitions/1/messages/2");
        assertThat(all.status()).as(all.toString()).isEqualTo(200);
        assertThat(all.json().get("value").get("truncated").asBoolean()).isFalse();
        assertThat(all.json().get("value").get("text").asText()).isEqualTo("x".repeat(10_000));
    }

    @Test
    void abortedTransactionsAndMarkersAreNotShown() throws Exception {
        JsonNode m = http.get("/api/v1/topics/" + TXN_TOPIC + "/messages?partition=0&from=offset&offset=0")
            .json().get("messages");
        assertThat(m.findValues("value").stream().map(v -> v.get("text").asText()).toList())
            .containsExactly("committed-1", "committed-2");
        JsonNode newest = http.get("/api/v1/topics/" + TXN_TOPIC + "/messages").json().get("messages");
        assertThat(newest.findValues("value").stream().map(v -> v.get("text").asText()).collect(Collectors.toSet()))
            .isSubsetOf(Set.of("committed-1", "committed-2")).contains("committed-2");
        ConsoleHttp.Reply aborted = http.get("/api/v1/topics/" + TXN_TOPIC + "/partitions/0/messages/3");
        assertThat(aborted.status()).as(aborted.toString()).isEqualTo(404);
    }

    @Test
    void offsetsOutsideThePartitionAreRefused() throws Exception {
        ConsoleHttp.Reply r = http.get("/api/v1/topics/" + TOPIC + "/messages?partition=0&from=offset&offset=900");
        assertThat(r.status()).isEqualTo(416);
        assertThat(r.error()).isEqualTo("OFFSET_OUT_OF_RANGE");
        assertThat(r.message()).isEqualTo("offset 900 is outside partition 0's range [0, 20)");
        assertThat(http.get("/api/v1/topics/" + TOPIC + "/partitions/0/messages/20").status()).isEqualTo(416);
        ConsoleHttp.Reply p = http.get("/api/v1/topics/" + TOPIC + "/messages?partition=9");
        assertThat(p.status()).isEqualTo(404);
        assertThat(p.message()).contains("partition 9 of topic 'orders' does not exist");
        ConsoleHttp.Reply limit = http.get("/api/v1/topics/" + TOPIC + "/messages?limit=501");
        assertThat(limit.status()).isEqualTo(400);
        assertThat(limit.message()).contains("'limit'");
    }

    // -- groups --

    @Test
    void groupLagIsEndMinusCommitted() throws Exception {
        ConsoleHttp.Reply list = http.get("/api/v1/groups");
        assertThat(list.status()).as(list.toString()).isEqualTo(200);
        JsonNode g = null;
        for (JsonNode n : list.json().get("groups")) {
            if (n.get("groupId").asText().equals(GROUP)) {
                g = n;
            }
        }
        assertThat(g).as(list.toString()).isNotNull();
        long committed = admin.listConsumerGroupOffsets(GROUP).partitionsToOffsetAndMetadata().get(20, TimeUnit.SECONDS)
            .get(new TopicPartition(TOPIC, 0)).offset();
        long end = offsets(TOPIC, 1, OffsetSpec.latest()).get(new TopicPartition(TOPIC, 0));
        assertThat(g.get("totalLag").asLong()).isEqualTo(end - committed).isEqualTo(15);
        assertThat(g.get("state").asText()).isEqualTo("Empty");
        assertThat(g.get("protocol").asText()).isEqualTo("classic");

        ConsoleHttp.Reply one = http.get("/api/v1/groups/" + GROUP);
        assertThat(one.status()).as(one.toString()).isEqualTo(200);
        JsonNode o = one.json().get("offsets").get(0);
        assertThat(o.get("topic").asText()).isEqualTo(TOPIC);
        assertThat(o.get("committed").asLong()).isEqualTo(committed);
        assertThat(o.get("endOffset").asLong()).isEqualTo(end);
        assertThat(o.get("lag").asLong()).isEqualTo(end - committed);
        assertThat(one.json().get("lagHistory").isArray()).isTrue();

        try (KafkaConsumer<String, String> c = broker.groupConsumer("odd group+/name", Map.of())) {
            c.assign(List.of(new TopicPartition(TOPIC, 1)));
            c.commitSync(Map.of(new TopicPartition(TOPIC, 1), new OffsetAndMetadata(1)));
        }
        ConsoleHttp.Reply odd = http.get("/api/v1/groups/odd%20group+%2Fname");
        assertThat(odd.status()).as(odd.toString()).isEqualTo(200);
        assertThat(odd.json().get("groupId").asText()).isEqualTo("odd group+/name");

        ConsoleHttp.Reply unknown = http.get("/api/v1/groups/nobody");
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.error()).isEqualTo("GROUP_ID_NOT_FOUND");
        assertThat(unknown.message()).isEqualTo("group 'nobody' does not exist");
    }

    @Test
    void aConsumerProtocolGroupWithItsMemberAndAssignment() throws Exception {
        try (KafkaConsumer<String, String> c = broker.consumerProtocolConsumer("kip848", Map.of())) {
            c.subscribe(List.of(TXN_TOPIC));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (c.assignment().isEmpty() && System.nanoTime() < deadline) {
                c.poll(java.time.Duration.ofMillis(100));
            }
            assertThat(c.assignment()).isNotEmpty();
            c.commitSync(Map.of(new TopicPartition(TXN_TOPIC, 0), new OffsetAndMetadata(3)));
            JsonNode g = http.get("/api/v1/groups/kip848").json();
            assertThat(g.get("protocol").asText()).isEqualTo("consumer");
            assertThat(g.get("state").asText()).isEqualTo("Stable");
            assertThat(g.get("members")).hasSize(1);
            JsonNode a = g.get("members").get(0).get("assignments").get(0);
            assertThat(a.get("topic").asText()).isEqualTo(TXN_TOPIC);
            assertThat(a.get("partition").asInt()).isZero();
            long committed = admin.listConsumerGroupOffsets("kip848").partitionsToOffsetAndMetadata()
                .get(20, TimeUnit.SECONDS).get(new TopicPartition(TXN_TOPIC, 0)).offset();
            long end = offsets(TXN_TOPIC, 1, OffsetSpec.latest()).get(new TopicPartition(TXN_TOPIC, 0));
            assertThat(committed).isEqualTo(3);
            assertThat(g.get("totalLag").asLong()).isEqualTo(end - committed);
            JsonNode listed = null;
            for (JsonNode n : http.get("/api/v1/groups").json().get("groups")) {
                if (n.get("groupId").asText().equals("kip848")) {
                    listed = n;
                }
            }
            assertThat(listed).isNotNull();
            assertThat(listed.get("protocol").asText()).isEqualTo("consumer");
            assertThat(listed.get("members").asInt()).isEqualTo(1);
        }
    }

    @Test
    void chartsSampleTheBrokersOwnMeters() throws Exception {
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20)).until(() -> {
            JsonNode in = http.get("/api/v1/charts").json().get("series").get("messagesInPerSec");
            for (JsonNode point : in) {
                if (point.get(1).asDouble() > 0) {
                    return true;
                }
            }
            return false;
        });
        ConsoleHttp.Reply r = http.get("/api/v1/charts");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.json().get("intervalMs").asLong()).isEqualTo(5000);
        assertThat(r.json().get("windowMs").asLong()).isEqualTo(900000);
        assertThat(r.json().get("series").fieldNames()).toIterable().containsExactly("messagesInPerSec",
            "messagesOutPerSec", "bytesInPerSec", "bytesOutPerSec", "produceLatencyP99Ms", "fetchLatencyP99Ms",
            "fsyncLatencyP99Ms");
    }
}
