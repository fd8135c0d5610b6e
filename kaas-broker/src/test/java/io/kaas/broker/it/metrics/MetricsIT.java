package io.kaas.broker.it.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.it.TestBroker;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admin endpoint over HTTP after real produce and consume with the Java clients and a group: the Kafka-named
 * series and their values, /health, /ready, OpenMetrics on request, 404 and 405.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MetricsIT {
    private static final String TOPIC = "metered";
    private static final int PARTITIONS = 2;
    private static final int RECORDS = 300;
    private static final int COMMITTED = 120;
    private static final String GROUP = "metrics-group";

    @TempDir
    static Path dir;
    static TestBroker broker;

    /** One HTTP answer: status, Content-Type, Allow, body. */
    record Answer(int status, String contentType, String allow, String body) {
    }

    static Answer request(String method, String path, String accept) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create("http://127.0.0.1:" + broker.broker.adminPort() + path)
            .toURL().openConnection();
        c.setRequestMethod(method);
        c.setInstanceFollowRedirects(false);
        c.setConnectTimeout(5000);
        c.setReadTimeout(10000);
        if (accept != null) {
            c.setRequestProperty("Accept", accept);
        }
        if (method.equals("POST")) {
            c.setDoOutput(true);
            c.getOutputStream().write("x".getBytes(StandardCharsets.UTF_8));
        }
        int status = c.getResponseCode();
        try (InputStream in = status < 400 ? c.getInputStream() : c.getErrorStream()) {
            String body = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return new Answer(status, c.getContentType(), c.getHeaderField("Allow"), body);
        } finally {
            c.disconnect();
        }
    }

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.builder(dir).noInitialRebalanceDelay().start();
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    private static Answer get(String path, String accept) throws IOException {
        return request("GET", path, accept);
    }

    /** The value of the one sample of {@code name} whose labels include every one of {@code labels}. */
    static OptionalDouble sample(String scrape, String name, Map<String, String> labels) {
        Pattern line = Pattern.compile("^" + Pattern.quote(name) + "(\\{([^}]*)\\})? (\\S+)$", Pattern.MULTILINE);
        Matcher m = line.matcher(scrape);
        while (m.find()) {
            String l = m.group(2) == null ? "" : m.group(2);
            boolean all = labels.entrySet().stream().allMatch(e -> l.contains(e.getKey() + "=\"" + e.getValue() + "\""));
            boolean noTopic = labels.containsKey("topic") || !l.contains("topic=");
            if (all && noTopic) {
                return OptionalDouble.of(Double.parseDouble(m.group(3)));
            }
        }
        return OptionalDouble.empty();
    }

    static double value(String scrape, String name, Map<String, String> labels) {
        OptionalDouble v = sample(scrape, name, labels);
        assertThat(v).as("%s%s in\n%s", name, labels, scrape).isPresent();
        return v.getAsDouble();
    }

    @Test
    void scrapeShowsWhatWasProducedConsumedAndCommitted() throws Exception {
        broker.createTopic(TOPIC, PARTITIONS);
        String start = get("/metrics", null).body();
        long valueBytes = 0;
        try (KafkaProducer<String, String> producer = broker.producer()) {
            for (int i = 0; i < RECORDS; i++) {
                String v = "value-" + i;
                valueBytes += v.length();
                producer.send(new ProducerRecord<>(TOPIC, i % PARTITIONS, "k" + i, v));
            }
            producer.flush();
        }
        // The group reads everything of partition 0 and commits COMMITTED of it; partition 1 stays uncommitted.
        TopicPartition p0 = new TopicPartition(TOPIC, 0);
        try (KafkaConsumer<String, String> consumer = broker.groupConsumer(GROUP, Map.of("enable.auto.commit", "false"))) {
            consumer.subscribe(List.of(TOPIC));
            List<ConsumerRecord<String, String>> read = new ArrayList<>();
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(read::add);
                return read.size() >= RECORDS;
            });
            consumer.commitSync(Map.of(p0, new OffsetAndMetadata(COMMITTED)));
        }

        String scrape = get("/metrics", null).body();
        // Kept for docs/metrics.md's sample excerpt.
        java.nio.file.Files.writeString(java.nio.file.Path.of("target", "metrics-sample.txt"), scrape);
        Map<String, String> topic = Map.of("topic", TOPIC);
        assertThat(value(scrape, "kafka_server_brokertopicmetrics_messagesin_total", topic)).isEqualTo(RECORDS);
        assertThat(value(scrape, "kafka_server_brokertopicmetrics_messagesin_total", Map.of()))
            .isGreaterThanOrEqualTo(RECORDS);
        assertThat(value(scrape, "kafka_server_brokertopicmetrics_bytesin_total", topic)).isGreaterThan(valueBytes);
        assertThat(value(scrape, "kafka_server_brokertopicmetrics_bytesout_total", topic)).isGreaterThan(valueBytes);
        assertThat(value(scrape, "kafka_server_brokertopicmetrics_bytesin_total", Map.of()))
            .isGreaterThanOrEqualTo(value(scrape, "kafka_server_brokertopicmetrics_bytesin_total", topic));
        assertThat(value(scrape, "kafka_server_brokertopicmetrics_failedproducerequests_total", topic)).isZero();
        assertThat(value(scrape, "kafka_server_brokertopicmetrics_failedfetchrequests_total", topic)).isZero();
        for (int p = 0; p < PARTITIONS; p++) {
            Map<String, String> tp = Map.of("topic", TOPIC, "partition", Integer.toString(p));
            assertThat(value(scrape, "kafka_log_log_logendoffset", tp)).isEqualTo(RECORDS / PARTITIONS);
            assertThat(value(scrape, "kafka_log_log_logstartoffset", tp)).isZero();
            assertThat(value(scrape, "kafka_log_log_size", tp)).isGreaterThan(0);
        }
        assertThat(value(scrape, "kafka_consumergroup_lag",
            Map.of("consumergroup", GROUP, "topic", TOPIC, "partition", "0"))).isEqualTo(RECORDS / PARTITIONS - COMMITTED);
        assertThat(sample(scrape, "kafka_consumergroup_lag",
            Map.of("consumergroup", GROUP, "topic", TOPIC, "partition", "1"))).as("no commit, no lag").isEmpty();
        // The test topic's partitions and __consumer_offsets' (all on this one broker).
        double partitions = value(scrape, "kafka_server_replicamanager_partitioncount", Map.of());
        assertThat(partitions).isGreaterThanOrEqualTo(PARTITIONS + 1);
        assertThat(value(scrape, "kafka_server_replicamanager_leadercount", Map.of())).isEqualTo(partitions);
        assertThat(value(scrape, "kafka_controller_kafkacontroller_activecontrollercount", Map.of())).isEqualTo(1);
        assertThat(value(scrape, "kafka_server_kafkaserver_brokerstate", Map.of())).isEqualTo(3);
        assertThat(value(scrape, "kafka_network_requestmetrics_requests_total", Map.of("request", "Produce")))
            .isGreaterThanOrEqualTo(1);
        assertThat(value(scrape, "kafka_network_requestmetrics_requests_total", Map.of("request", "FetchConsumer")))
            .isGreaterThanOrEqualTo(1);
        assertThat(value(scrape, "kafka_network_requestmetrics_totaltimems_count", Map.of("request", "Produce")))
            .isGreaterThanOrEqualTo(1);
        assertThat(value(scrape, "kafka_network_requestmetrics_totaltimems", Map.of("request", "Produce",
            "quantile", "0.99"))).isGreaterThanOrEqualTo(0);
        double idle = value(scrape, "kafka_network_socketserver_networkprocessoravgidle_percent", Map.of());
        assertThat(idle).isBetween(0.0, 1.0);
        assertThat(value(scrape, "kaas_storage_engine_info", Map.of("name", "segments"))).isEqualTo(1);
        assertThat(value(scrape, "kaas_cluster_store_info", Map.of("name", "files"))).isEqualTo(1);
        assertThat(value(scrape, "kaas_plugin_info", Map.of("name", "segments"))).isEqualTo(1);
        // acks=all (the clients' default): every produce waited for a group-commit fsync.
        assertThat(value(scrape, "kaas_log_flush_seconds_count", Map.of())).isGreaterThanOrEqualTo(1);
        assertThat(value(scrape, "kaas_log_group_commit_batches_count", Map.of())).isGreaterThanOrEqualTo(1);
        assertThat(value(scrape, "kaas_log_group_commit_batches_sum", Map.of())).isGreaterThanOrEqualTo(1);
        assertThat(scrape).contains("kaas_log_flush_seconds_bucket{");
        assertThat(value(scrape, "kaas_log_fsync_stalls_total", Map.of())).isZero();
        assertThat(value(scrape, "kaas_log_recovery_seconds", Map.of("topic", TOPIC, "partition", "0")))
            .isGreaterThanOrEqualTo(0);
        // Byte opacity: a plain (CreateTime, non-compacted) topic never needs a batch decompressed or rewritten.
        // (Other tests of this class share the broker: compare with the scrape taken just before producing.)
        for (String[] tripwire : new String[][] {{"kaas_batches_decompressed_total", "compacted_key_validation"},
                {"kaas_batches_rewritten_total", "log_append_time"}}) {
            Map<String, String> reason = Map.of("reason", tripwire[1]);
            assertThat(value(scrape, tripwire[0], reason)).as(tripwire[0]).isEqualTo(value(start, tripwire[0], reason));
        }
        // Metaspace: a heap pool (eden just after a young GC, survivors before one) may well read 0.
        assertThat(value(scrape, "jvm_memory_used_bytes", Map.of("id", "Metaspace"))).isGreaterThan(0);
        assertThat(value(scrape, "process_uptime_seconds", Map.of())).isGreaterThan(0);
    }

    @Test
    void tripwiresCountTheBatchesTheBrokerHadToRewriteOrDecompress() throws Exception {
        broker.createTopic("append-time", 1, Map.of("message.timestamp.type", "LogAppendTime"));
        broker.createTopic("compacted", 1, Map.of("cleanup.policy", "compact"));
        String before = get("/metrics", null).body();
        double rewritten = value(before, "kaas_batches_rewritten_total", Map.of("reason", "log_append_time"));
        double decompressed = value(before, "kaas_batches_decompressed_total",
            Map.of("reason", "compacted_key_validation"));
        try (KafkaProducer<String, String> producer = broker.producer(Map.of("compression.type", "lz4"))) {
            producer.send(new ProducerRecord<>("append-time", "k", "v")).get();
            producer.send(new ProducerRecord<>("compacted", "k", "v")).get();
        }
        String after = get("/metrics", null).body();
        assertThat(value(after, "kaas_batches_rewritten_total", Map.of("reason", "log_append_time")))
            .isEqualTo(rewritten + 1);
        assertThat(value(after, "kaas_batches_decompressed_total", Map.of("reason", "compacted_key_validation")))
            .isEqualTo(decompressed + 1);
    }

    @Test
    void healthReadyAndContentTypes() throws Exception {
        assertThat(get("/health", null).status()).isEqualTo(200);
        Answer ready = get("/ready", null);
        assertThat(ready.status()).as(ready.body()).isEqualTo(200);
        assertThat(get("/metrics", null).contentType()).startsWith("text/plain; version=0.0.4");
        Answer open = get("/metrics", "application/openmetrics-text; version=1.0.0");
        assertThat(open.status()).isEqualTo(200);
        assertThat(open.contentType()).startsWith("application/openmetrics-text");
        assertThat(open.body()).contains("# EOF");
        // The protobuf format is not served (its writer is not in the distribution): a scraper preferring it gets text.
        Answer protobuf = get("/metrics", "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;"
            + "encoding=delimited;q=0.7,text/plain;version=0.0.4;q=0.3");
        assertThat(protobuf.status()).isEqualTo(200);
        assertThat(protobuf.contentType()).startsWith("text/plain; version=0.0.4");
        assertThat(protobuf.body()).contains("kafka_server_kafkaserver_brokerstate");
        assertThat(get("/metrics?x=1", null).status()).as("a query string is ignored").isEqualTo(200);
    }

    @Test
    void unknownPathIs404AndOtherMethodsAre405() throws Exception {
        assertThat(get("/nope", null).status()).isEqualTo(404);
        assertThat(get("/", null).status()).as("the console's address (admin.console.enabled)").isEqualTo(302);
        Answer post = request("POST", "/metrics", null);
        assertThat(post.status()).isEqualTo(405);
        assertThat(post.allow()).isEqualTo("GET");
        assertThat(request("DELETE", "/ready", null).status()).isEqualTo(405);
        assertThat(request("PUT", "/nope", null).status()).as("unknown path first").isEqualTo(404);
    }
}
