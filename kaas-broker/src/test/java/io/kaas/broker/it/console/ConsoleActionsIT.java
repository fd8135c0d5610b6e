package io.kaas.broker.it.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.kaas.broker.it.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console's actions, each checked through the Kafka Admin client or a real consumer afterwards: a created topic
 * is visible, a config changed, records deleted, a group's offsets reset, a test message consumed; and bad input
 * answered with the documented status and JSON error, with nothing changed.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConsoleActionsIT {

    @TempDir
    static Path dir;
    static TestBroker broker;
    static Admin admin;
    static ConsoleHttp http;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.builder(dir).noInitialRebalanceDelay().config("auto.create.topics.enable", "false").start();
        admin = broker.admin();
        http = new ConsoleHttp(broker.broker.adminPort());
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

    private static void produce(String topic, int partition, int n) throws Exception {
        try (KafkaProducer<String, String> p = broker.producer()) {
            for (int i = 0; i < n; i++) {
                p.send(new ProducerRecord<>(topic, partition, "k" + i, "v" + i)).get(20, TimeUnit.SECONDS);
            }
        }
    }

    private static long latest(String topic, int partition) throws Exception {
        TopicPartition tp = new TopicPartition(topic, partition);
        return admin.listOffsets(Map.of(tp, OffsetSpec.latest())).all().get(20, TimeUnit.SECONDS).get(tp).offset();
    }

    private static long earliest(String topic, int partition) throws Exception {
        TopicPartition tp = new TopicPartition(topic, partition);
        return admin.listOffsets(Map.of(tp, OffsetSpec.earliest())).all().get(20, TimeUnit.SECONDS).get(tp).offset();
    }

    private static String topicConfig(String topic, String key) throws Exception {
        ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Config c = admin.describeConfigs(List.of(r)).all().get(20, TimeUnit.SECONDS).get(r);
        return c.get(key).value();
    }

    @Test
    void createdTopicIsVisibleToTheAdminClient() throws Exception {
        ConsoleHttp.Reply r = http.post("/api/v1/topics", Map.of("name", "created", "partitions", 4,
            "configs", Map.of("retention.ms", "7200000")));
        assertThat(r.status()).as(r.toString()).isEqualTo(201);
        assertThat(r.json().get("name").asText()).isEqualTo("created");
        assertThat(r.json().get("partitions")).hasSize(4);
        TopicDescription d = admin.describeTopics(List.of("created")).allTopicNames().get(20, TimeUnit.SECONDS)
            .get("created");
        assertThat(d.partitions()).hasSize(4);
        assertThat(topicConfig("created", "retention.ms")).isEqualTo("7200000");

        ConsoleHttp.Reply again = http.post("/api/v1/topics", Map.of("name", "created", "partitions", 1));
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.error()).isEqualTo("TOPIC_ALREADY_EXISTS");
        assertThat(again.message()).contains("'created'");
        assertThat(admin.describeTopics(List.of("created")).allTopicNames().get(20, TimeUnit.SECONDS).get("created")
            .partitions()).hasSize(4);
    }

    @Test
    void badCreationsChangeNothing() throws Exception {
        ConsoleHttp.Reply negative = http.post("/api/v1/topics", Map.of("name", "neg", "partitions", -3));
        assertThat(negative.status()).isEqualTo(400);
        assertThat(negative.error()).isEqualTo("INVALID_PARTITIONS");
        assertThat(negative.message()).isEqualTo("topic 'neg': partitions must be at least 1, not -3");
        ConsoleHttp.Reply missing = http.post("/api/v1/topics", Map.of("name", "nopartitions"));
        assertThat(missing.status()).isEqualTo(400);
        assertThat(missing.error()).isEqualTo("INVALID_REQUEST");
        assertThat(missing.message()).isEqualTo("missing field 'partitions'");
        ConsoleHttp.Reply malformed = http.post("/api/v1/topics", "{\"name\": \"broken\", ");
        assertThat(malformed.status()).isEqualTo(400);
        assertThat(malformed.message()).startsWith("malformed JSON");
        ConsoleHttp.Reply badConfig = http.post("/api/v1/topics", Map.of("name", "badconfig", "partitions", 1,
            "configs", Map.of("retention.ms", "soon")));
        assertThat(badConfig.status()).as(badConfig.toString()).isEqualTo(400);
        assertThat(badConfig.error()).isEqualTo("INVALID_CONFIG");
        ConsoleHttp.Reply noHeader = http.rawPost("/api/v1/topics", "{\"name\":\"csrf\",\"partitions\":1}",
            Map.of("Content-Type", "application/json"));
        assertThat(noHeader.status()).isEqualTo(403);
        assertThat(noHeader.error()).isEqualTo("CONSOLE_HEADER_REQUIRED");
        ConsoleHttp.Reply form = http.rawPost("/api/v1/topics", "name=csrf&partitions=1",
            Map.of("Content-Type", "application/x-www-form-urlencoded", "X-Kaas-Console", "1"));
        assertThat(form.status()).isEqualTo(415);
        assertThat(admin.listTopics().names().get(20, TimeUnit.SECONDS))
            .doesNotContain("neg", "nopartitions", "broken", "badconfig", "csrf");
    }

    @Test
    void configChangesAreSeenByTheAdminClient() throws Exception {
        broker.createTopic("configured", 1);
        ConsoleHttp.Reply r = http.patch("/api/v1/topics/configured/configs",
            Map.of("set", Map.of("retention.ms", "120000", "cleanup.policy", "compact")));
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        assertThat(topicConfig("configured", "retention.ms")).isEqualTo("120000");
        assertThat(topicConfig("configured", "cleanup.policy")).isEqualTo("compact");
        boolean listed = false;
        for (JsonNode c : r.json().get("configs")) {
            if (c.get("name").asText().equals("retention.ms")) {
                assertThat(c.get("value").asText()).isEqualTo("120000");
                assertThat(c.get("source").asText()).isEqualTo("DYNAMIC_TOPIC_CONFIG");
                listed = true;
            }
        }
        assertThat(listed).isTrue();

        ConsoleHttp.Reply delete = http.patch("/api/v1/topics/configured/configs", Map.of("delete", List.of("cleanup.policy")));
        assertThat(delete.status()).as(delete.toString()).isEqualTo(200);
        assertThat(topicConfig("configured", "cleanup.policy")).isEqualTo("delete");

        ConsoleHttp.Reply bad = http.patch("/api/v1/topics/configured/configs", Map.of("set", Map.of("retention.ms", "x")));
        assertThat(bad.status()).as(bad.toString()).isEqualTo(400);
        assertThat(bad.error()).isEqualTo("INVALID_CONFIG");
        assertThat(topicConfig("configured", "retention.ms")).isEqualTo("120000");
        ConsoleHttp.Reply unknownKey = http.patch("/api/v1/topics/configured/configs",
            Map.of("set", Map.of("retention.ms", "1", "no.such.key", "1")));
        assertThat(unknownKey.status()).as(unknownKey.toString()).isEqualTo(400);
        assertThat(unknownKey.error()).isEqualTo("INVALID_CONFIG");
        assertThat(topicConfig("configured", "retention.ms")).isEqualTo("120000");
        ConsoleHttp.Reply unknown = http.patch("/api/v1/topics/ghost/configs", Map.of("set", Map.of("retention.ms", "1")));
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.error()).isEqualTo("UNKNOWN_TOPIC_OR_PARTITION");
        ConsoleHttp.Reply empty = http.patch("/api/v1/topics/configured/configs", Map.of());
        assertThat(empty.status()).isEqualTo(400);
    }

    @Test
    void deleteRecordsMovesTheStartOffset() throws Exception {
        broker.createTopic("trimmed", 1);
        produce("trimmed", 0, 10);
        ConsoleHttp.Reply r = http.post("/api/v1/topics/trimmed/delete-records", Map.of("partition", 0, "beforeOffset", 4));
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        assertThat(r.json().get("lowWatermark").asLong()).isEqualTo(4);
        assertThat(earliest("trimmed", 0)).isEqualTo(4);

        ConsoleHttp.Reply past = http.post("/api/v1/topics/trimmed/delete-records", Map.of("partition", 0, "beforeOffset", 99));
        assertThat(past.status()).isEqualTo(416);
        assertThat(past.error()).isEqualTo("OFFSET_OUT_OF_RANGE");
        ConsoleHttp.Reply partition = http.post("/api/v1/topics/trimmed/delete-records",
            Map.of("partition", 5, "beforeOffset", 1));
        assertThat(partition.status()).isEqualTo(404);
        assertThat(earliest("trimmed", 0)).isEqualTo(4);
    }

    @Test
    void aTestMessageIsConsumedByARealConsumer() throws Exception {
        broker.createTopic("tested", 2);
        ConsoleHttp.Reply r = http.post("/api/v1/topics/tested/messages",
            Map.of("partition", 1, "key", "hello", "value", "from the console", "headers", Map.of("origin", "console")));
        assertThat(r.status()).as(r.toString()).isEqualTo(201);
        assertThat(r.json().get("partition").asInt()).isEqualTo(1);
        assertThat(r.json().get("offset").asLong()).isZero();
        try (KafkaConsumer<String, String> c = broker.consumer()) {
            TopicPartition tp = new TopicPartition("tested", 1);
            c.assign(List.of(tp));
            c.seekToBeginning(List.of(tp));
            List<ConsumerRecord<String, String>> got = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (got.isEmpty() && System.nanoTime() < deadline) {
                c.poll(Duration.ofMillis(200)).forEach(got::add);
            }
            assertThat(got).hasSize(1);
            assertThat(got.get(0).key()).isEqualTo("hello");
            assertThat(got.get(0).value()).isEqualTo("from the console");
            assertThat(new String(got.get(0).headers().lastHeader("origin").value())).isEqualTo("console");
        }
        ConsoleHttp.Reply keyed = http.post("/api/v1/topics/tested/messages", Map.of("key", "hello", "value", "again"));
        assertThat(keyed.status()).isEqualTo(201);
        try (KafkaProducer<String, String> p = broker.producer()) {
            int javaPartition = p.send(new ProducerRecord<>("tested", "hello", "java")).get(20, TimeUnit.SECONDS)
                .partition();
            assertThat(keyed.json().get("partition").asInt()).as("the default partitioner's choice").isEqualTo(javaPartition);
        }
    }

    @Test
    void tooLargeMessagesAreRefusedAndNothingIsWritten() throws Exception {
        broker.createTopic("small", 1, Map.of("max.message.bytes", "1024"));
        ConsoleHttp.Reply r = http.post("/api/v1/topics/small/messages", Map.of("partition", 0, "value", "x".repeat(5000)));
        assertThat(r.status()).as(r.toString()).isEqualTo(413);
        assertThat(r.error()).isEqualTo("MESSAGE_TOO_LARGE");
        assertThat(r.message()).contains("'small'");
        ConsoleHttp.Reply huge = http.post("/api/v1/topics/small/messages", Map.of("partition", 0,
            "value", "y".repeat(2 * 1024 * 1024)));
        assertThat(huge.status()).isEqualTo(413);
        assertThat(huge.error()).isEqualTo("REQUEST_TOO_LARGE");
        assertThat(latest("small", 0)).isZero();
        ConsoleHttp.Reply unknown = http.post("/api/v1/topics/nowhere/messages", Map.of("value", "v"));
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(admin.listTopics().names().get(20, TimeUnit.SECONDS)).doesNotContain("nowhere");
        ConsoleHttp.Reply partition = http.post("/api/v1/topics/small/messages", Map.of("partition", 3, "value", "v"));
        assertThat(partition.status()).isEqualTo(404);
        assertThat(latest("small", 0)).isZero();
    }

    @Test
    void resetOffsetsOfAnEmptyGroupAndNotOfAnActiveOne() throws Exception {
        broker.createTopic("replayed", 2);
        produce("replayed", 0, 10);
        produce("replayed", 1, 6);
        String group = "replayers";
        try (KafkaConsumer<String, String> c = broker.groupConsumer(group, Map.of("enable.auto.commit", "false"))) {
            c.assign(List.of(new TopicPartition("replayed", 0), new TopicPartition("replayed", 1)));
            c.commitSync(Map.of(new TopicPartition("replayed", 0), new OffsetAndMetadata(10),
                new TopicPartition("replayed", 1), new OffsetAndMetadata(6)));
        }
        Map<String, Object> toEarliest = new HashMap<>();
        toEarliest.put("topic", "replayed");
        toEarliest.put("partitions", null);
        toEarliest.put("to", "earliest");
        ConsoleHttp.Reply r = http.post("/api/v1/groups/" + group + "/reset-offsets", toEarliest);
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        Map<TopicPartition, OffsetAndMetadata> now = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()
            .get(20, TimeUnit.SECONDS);
        assertThat(now.get(new TopicPartition("replayed", 0)).offset()).isZero();
        assertThat(now.get(new TopicPartition("replayed", 1)).offset()).isZero();

        ConsoleHttp.Reply offset = http.post("/api/v1/groups/" + group + "/reset-offsets",
            Map.of("topic", "replayed", "partitions", List.of(0), "to", "offset", "value", 7));
        assertThat(offset.status()).as(offset.toString()).isEqualTo(200);
        assertThat(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(20, TimeUnit.SECONDS)
            .get(new TopicPartition("replayed", 0)).offset()).isEqualTo(7);
        ConsoleHttp.Reply lag = http.get("/api/v1/groups/" + group);
        assertThat(lag.json().get("totalLag").asLong()).isEqualTo(3 + 6);

        ConsoleHttp.Reply outOfRange = http.post("/api/v1/groups/" + group + "/reset-offsets",
            Map.of("topic", "replayed", "partitions", List.of(0), "to", "offset", "value", 900));
        assertThat(outOfRange.status()).isEqualTo(416);
        assertThat(outOfRange.message()).isEqualTo("offset 900 is outside partition 0's range [0, 10)");
        ConsoleHttp.Reply unknownTopic = http.post("/api/v1/groups/" + group + "/reset-offsets",
            Map.of("topic", "ghost", "to", "latest"));
        assertThat(unknownTopic.status()).isEqualTo(404);

        try (KafkaConsumer<String, String> active = broker.groupConsumer(group, Map.of("enable.auto.commit", "false"))) {
            active.subscribe(List.of("replayed"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (active.assignment().isEmpty() && System.nanoTime() < deadline) {
                active.poll(Duration.ofMillis(100));
            }
            assertThat(active.assignment()).isNotEmpty();
            ConsoleHttp.Reply busy = http.post("/api/v1/groups/" + group + "/reset-offsets",
                Map.of("topic", "replayed", "to", "latest"));
            assertThat(busy.status()).as(busy.toString()).isEqualTo(409);
            assertThat(busy.error()).isEqualTo("NON_EMPTY_GROUP");
            assertThat(busy.message()).contains("group 'replayers'");
            ConsoleHttp.Reply described = http.get("/api/v1/groups/" + group);
            assertThat(described.json().get("state").asText()).isEqualTo("Stable");
            assertThat(described.json().get("members")).hasSize(1);
            assertThat(described.json().get("members").get(0).get("assignments")).hasSize(2);
        }
        assertThat(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(20, TimeUnit.SECONDS)
            .get(new TopicPartition("replayed", 0)).offset()).isEqualTo(7);
    }
}
