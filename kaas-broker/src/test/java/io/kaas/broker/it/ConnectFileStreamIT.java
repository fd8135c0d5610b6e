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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka Connect's distributed worker (connect-runtime, in a JVM of its own: see {@link ConnectWorkerJvm}) against
 * one kaas broker: it creates its config, offset and status topics (compacted), runs the FileStream source
 * connector (a file of lines into a topic) and sink connector (the topic into another file), reports both RUNNING
 * through its REST API, and after a worker restart resumes from the offsets it stored in kaas: no line lost, none
 * duplicated.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class ConnectFileStreamIT {
    private static final String TOPIC = "file-lines";
    private static final Set<String> INTERNAL_TOPICS = Set.of("connect-configs", "connect-offsets", "connect-status");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path root;

    private ConnectWorkerJvm worker;

    @AfterEach
    void stopWorker() throws InterruptedException {
        if (worker != null) {
            worker.close();
        }
    }

    @Test
    void fileSourceToFileSinkThroughKaasSurvivesAWorkerRestart() throws Exception {
        Path source = root.resolve("source.txt");
        Path sink = root.resolve("sink.txt");
        List<String> lines = lines(0, 2000);
        Files.write(source, lines, StandardCharsets.UTF_8);

        try (TestBroker broker = TestBroker.builder(root).start(); Admin admin = broker.admin()) {
            broker.createTopic(TOPIC, 1); // kaas's auto.create.topics.enable defaults to false
            worker = startWorker(broker);

            put("file-source", Map.of("connector.class", "org.apache.kafka.connect.file.FileStreamSourceConnector",
                    "tasks.max", "1", "file", source.toString(), "topic", TOPIC));
            put("file-sink", Map.of("connector.class", "org.apache.kafka.connect.file.FileStreamSinkConnector",
                    "tasks.max", "1", "file", sink.toString(), "topics", TOPIC));

            awaitSinkEquals(sink, lines);
            assertRunning("file-source");
            assertRunning("file-sink");
            assertInternalTopicsCompacted(admin);

            // a restarted worker resumes the source from its stored file position and the sink from its group's
            // committed offsets: the lines appended meanwhile arrive once, the first ones are not read again
            assertThat(worker.stop()).as("the worker's exit status after SIGTERM: %s", worker.output())
                    .isIn(0, 143);
            List<String> more = lines(2000, 2500);
            Files.write(source, more, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
            List<String> all = new ArrayList<>(lines);
            all.addAll(more);

            worker = startWorker(broker);
            awaitSinkEquals(sink, all);
            assertRunning("file-source");
            assertRunning("file-sink");

            TopicPartition tp = new TopicPartition(TOPIC, 0);
            assertThat(admin.listOffsets(Map.of(tp, OffsetSpec.latest())).partitionResult(tp)
                    .get(20, TimeUnit.SECONDS).offset())
                    .as("every line was produced exactly once").isEqualTo(all.size());
            worker.stop(); // before the broker closes: a worker without its broker waits out its timeouts
        }
    }

    private ConnectWorkerJvm startWorker(TestBroker broker) throws IOException {
        ConnectWorkerJvm w = ConnectWorkerJvm.start(root.resolve("worker"), broker.bootstrap(), BrokerJvm.freePort(),
                Map.of());
        await("the worker's REST API answers").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .ignoreExceptions()
                .failFast("the worker exited", () -> !w.isAlive())
                .until(() -> send("GET", w.rest.resolve("connectors"), null).status == 200);
        return w;
    }

    /** PUT a connector's config; retried while the worker has not joined its group yet (409 / 500 rebalancing). */
    private void put(String name, Map<String, String> config) {
        byte[] body;
        try {
            body = JSON.writeValueAsBytes(config);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        URI uri = worker.rest.resolve("connectors/" + name + "/config");
        await("PUT connector " + name).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .failFast("the worker exited", () -> !worker.isAlive())
                .untilAsserted(() -> {
                    Answer answer = send("PUT", uri, body);
                    assertThat(answer.status).as("PUT connector %s: %s", name, answer.body).isIn(200, 201);
                });
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

    private static List<String> lines(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> "line " + i + " of the source file").collect(Collectors.toList());
    }

    private void awaitSinkEquals(Path sink, List<String> expected) {
        await("the sink file holds every source line").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .failFast("the worker exited", () -> !worker.isAlive())
                .until(() -> Files.exists(sink) && Files.readAllLines(sink).size() >= expected.size());
        await("the sink file is flushed").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> assertThat(Files.readAllLines(sink, StandardCharsets.UTF_8))
                        .as("the sink file, line by line").isEqualTo(expected));
    }

    private void assertRunning(String connector) {
        await(connector + " and its task RUNNING").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> {
                    Answer response = send("GET", worker.rest.resolve("connectors/" + connector + "/status"), null);
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
