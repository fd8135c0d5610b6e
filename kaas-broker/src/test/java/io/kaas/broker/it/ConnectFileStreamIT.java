package io.kaas.broker.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.utils.internals.Exit;
import org.apache.kafka.connect.cli.ConnectDistributed;
import org.apache.kafka.connect.runtime.Connect;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka Connect's distributed worker (connect-runtime, in-process) against one kaas broker: it creates its config,
 * offset and status topics (compacted), runs the FileStream source connector (a file of lines into a topic) and
 * sink connector (the topic into another file), reports both RUNNING through its REST API, and after a worker
 * restart resumes from the offsets it stored in kaas: no line lost, none duplicated.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConnectFileStreamIT {
    private static final String TOPIC = "file-lines";
    private static final Set<String> INTERNAL_TOPICS = Set.of("connect-configs", "connect-offsets", "connect-status");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path root;

    private Connect<?> worker;

    @BeforeEach
    void exitThrowsInsteadOfEndingTheJvm() {
        // Connect's start-up calls Exit.exit on a fatal error: make that fail the test, not end Failsafe's JVM
        Exit.setExitProcedure((status, message) -> {
            throw new IllegalStateException("Connect asked to exit " + status + ": " + message);
        });
    }

    @AfterEach
    void stopWorker() {
        if (worker != null) {
            worker.stop();
        }
        Exit.resetExitProcedure();
    }

    @Test
    void fileSourceToFileSinkThroughKaasSurvivesAWorkerRestart() throws Exception {
        Path source = root.resolve("source.txt");
        Path sink = root.resolve("sink.txt");
        List<String> lines = lines(0, 2000);
        Files.write(source, lines, StandardCharsets.UTF_8);

        try (TestBroker broker = TestBroker.builder(root).start(); Admin admin = broker.admin()) {
            broker.createTopic(TOPIC, 1); // kaas's auto.create.topics.enable defaults to false
            worker = new ConnectDistributed().startConnect(workerProps(broker.bootstrap()));
            URI rest = worker.rest().serverUrl();
            awaitRestReady(rest);

            put(rest, "file-source", Map.of("connector.class", "org.apache.kafka.connect.file.FileStreamSourceConnector",
                    "tasks.max", "1", "file", source.toString(), "topic", TOPIC));
            put(rest, "file-sink", Map.of("connector.class", "org.apache.kafka.connect.file.FileStreamSinkConnector",
                    "tasks.max", "1", "file", sink.toString(), "topics", TOPIC));

            awaitSinkEquals(sink, lines);
            assertRunning(rest, "file-source");
            assertRunning(rest, "file-sink");
            assertInternalTopicsCompacted(admin);

            // a restarted worker resumes the source from its stored file position and the sink from its group's
            // committed offsets: the lines appended meanwhile arrive once, the first ones are not read again
            worker.stop();
            worker = null;
            List<String> more = lines(2000, 2500);
            Files.write(source, more, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
            List<String> all = new ArrayList<>(lines);
            all.addAll(more);

            worker = new ConnectDistributed().startConnect(workerProps(broker.bootstrap()));
            URI restAgain = worker.rest().serverUrl();
            awaitRestReady(restAgain);
            awaitSinkEquals(sink, all);
            assertRunning(restAgain, "file-source");
            assertRunning(restAgain, "file-sink");

            TopicPartition tp = new TopicPartition(TOPIC, 0);
            assertThat(admin.listOffsets(Map.of(tp, OffsetSpec.latest())).partitionResult(tp)
                    .get(20, TimeUnit.SECONDS).offset())
                    .as("every line was produced exactly once").isEqualTo(all.size());
            worker.stop(); // before the broker closes: a worker without its broker waits out its timeouts
            worker = null;
        }
    }

    private Map<String, String> workerProps(String bootstrap) {
        Map<String, String> p = new HashMap<>();
        p.put("bootstrap.servers", bootstrap);
        p.put("group.id", "kaas-connect");
        p.put("listeners", "http://127.0.0.1:0");
        p.put("rest.advertised.host.name", "127.0.0.1");
        p.put("config.storage.topic", "connect-configs");
        p.put("offset.storage.topic", "connect-offsets");
        p.put("status.storage.topic", "connect-status");
        p.put("config.storage.replication.factor", "1");
        p.put("offset.storage.replication.factor", "1");
        p.put("status.storage.replication.factor", "1");
        p.put("offset.storage.partitions", "3");
        p.put("status.storage.partitions", "2");
        p.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
        p.put("value.converter", "org.apache.kafka.connect.storage.StringConverter");
        p.put("offset.flush.interval.ms", "500");
        // plugins from their ServiceLoader manifests on the class path: no scan of the whole test class path
        p.put("plugin.discovery", "service_load");
        p.put("scheduled.rebalance.max.delay.ms", "0");
        return p;
    }

    private static List<String> lines(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> "line " + i + " of the source file").collect(Collectors.toList());
    }

    private static void awaitRestReady(URI rest) {
        await("the worker's REST API answers").atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(200))
                .ignoreExceptions()
                .until(() -> get(rest, "connectors").status == 200);
    }

    private static void put(URI rest, String name, Map<String, String> config) throws IOException {
        Answer answer = send("PUT", rest.resolve("connectors/" + name + "/config"), JSON.writeValueAsBytes(config));
        assertThat(answer.status).as("PUT connector %s: %s", name, answer.body).isEqualTo(201);
    }

    private static Answer get(URI rest, String path) throws IOException {
        return send("GET", rest.resolve(path), null);
    }

    /** One HTTP exchange with the worker's REST API (bounded). */
    private static Answer send(String method, URI uri, byte[] json) throws IOException {
        HttpURLConnection c = (HttpURLConnection) uri.toURL().openConnection();
        try {
            c.setConnectTimeout(5000);
            c.setReadTimeout(20000);
            c.setRequestMethod(method);
            if (json != null) {
                c.setDoOutput(true);
                c.setRequestProperty("Content-Type", "application/json");
                try (OutputStream out = c.getOutputStream()) {
                    out.write(json);
                }
            }
            int status = c.getResponseCode();
            InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream();
            String body = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return new Answer(status, body);
        } finally {
            c.disconnect();
        }
    }

    private record Answer(int status, String body) {
    }

    private static void awaitSinkEquals(Path sink, List<String> expected) {
        await("the sink file holds every source line").atMost(Duration.ofSeconds(40))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> Files.exists(sink) && Files.readAllLines(sink).size() >= expected.size());
        await("the sink file is flushed").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertThat(Files.readAllLines(sink, StandardCharsets.UTF_8))
                        .as("the sink file, line by line").isEqualTo(expected));
    }

    private static void assertRunning(URI rest, String connector) {
        await(connector + " and its task RUNNING").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> {
                    Answer response = get(rest, "connectors/" + connector + "/status");
                    assertThat(response.status).as(response.body).isEqualTo(200);
                    JsonNode status = JSON.readTree(response.body);
                    assertThat(status.path("connector").path("state").asText()).as(response.body).isEqualTo("RUNNING");
                    assertThat(status.path("tasks")).as(response.body).hasSize(1);
                    assertThat(status.path("tasks").get(0).path("state").asText()).as(response.body)
                            .isEqualTo("RUNNING");
                });
    }

    private static void assertInternalTopicsCompacted(Admin admin) throws Exception {
        List<ConfigResource> resources = INTERNAL_TOPICS.stream()
                .map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t)).collect(Collectors.toList());
        Map<ConfigResource, Config> configs = admin.describeConfigs(resources).all().get(20, TimeUnit.SECONDS);
        for (ConfigResource r : resources) {
            assertThat(configs.get(r).get("cleanup.policy").value()).as("%s's cleanup.policy", r.name())
                    .isEqualTo("compact");
        }
    }
}
