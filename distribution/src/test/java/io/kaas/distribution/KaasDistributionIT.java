package io.kaas.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * Black-box test of the built tarball: unpack it, start {@code bin/kaas-server-start.sh} as a
 * separate process, drive it with the real Kafka CLI tools (each its own JVM), stop it with
 * SIGTERM, restart it over the same data, and check that nothing was lost.
 */
class KaasDistributionIT {

    private static final String HOST = "127.0.0.1";
    private static final String TOPIC = "t";
    private static final int PARTITIONS = 3;
    private static final int RECORDS = 30;
    private static final long DELETED_UP_TO = 2;
    private static final Pattern OFFSET_LINE = Pattern.compile("^" + TOPIC + ":(\\d+):(\\d+)$");

    @TempDir
    Path tmp;

    private Path install;
    private Path toolsDir;
    private CliTool tools;
    private final List<BrokerProcess> brokers = new ArrayList<>();
    private final List<Path> brokerLogs = new ArrayList<>();

    @BeforeEach
    void unpackTarball() throws Exception {
        install = Tarball.unpack(tmp);
        toolsDir = Files.createDirectories(tmp.resolve("tools"));
        Path toolsLogback = Path.of(getClass().getResource("/tools-logback.xml").toURI());
        tools = new CliTool(toolsDir, toolsLogback);
    }

    /** Kills any broker still running, then keeps every broker log and tool output under target/. */
    @AfterEach
    void stopBrokersAndKeepLogs(TestInfo test) throws Exception {
        for (BrokerProcess broker : brokers) {
            broker.close();
        }
        Path keep = Path.of(System.getProperty("kaas.it.logs", "target/it-logs"))
            .resolve(test.getTestMethod().orElseThrow().getName());
        Files.createDirectories(keep);
        try (Stream<Path> stale = Files.list(keep)) {
            for (Path file : stale.toList()) {
                Files.delete(file);
            }
        }
        for (Path log : brokerLogs) {
            Files.copy(log, keep.resolve(log.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        }
        try (Stream<Path> files = Files.list(toolsDir)) {
            for (Path file : files.toList()) {
                Files.copy(file, keep.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    @Test
    void servesTheKafkaCliToolsAndKeepsRecordsAcrossARestart() throws Exception {
        int port = freePort();
        String bootstrap = HOST + ":" + port;
        Path dataDir = tmp.resolve("data");
        Path config = writeConfig(Map.of(
            "listeners", "PLAINTEXT://" + bootstrap,
            "advertised.listeners", "PLAINTEXT://" + bootstrap,
            "log.dirs", dataDir.toString()));

        BrokerProcess broker = startBroker(config.toString());
        broker.awaitReady(HOST, port);

        createListAndDescribe(bootstrap, broker);
        Map<Integer, List<String>> sent = produce(bootstrap, broker);
        Map<Integer, Long> expectedEnds = new TreeMap<>();
        sent.forEach((p, lines) -> expectedEnds.put(p, (long) lines.size()));
        assertThat(offsets(bootstrap, "-1", broker)).as("latest offsets").isEqualTo(expectedEnds);
        assertThat(offsets(bootstrap, "-2", broker)).as("earliest offsets").isEqualTo(zeros());

        assertThat(consume(bootstrap, 0, "earliest", sent.get(0).size(), broker))
            .as("partition 0, from the beginning").isEqualTo(sent.get(0));
        assertThat(consume(bootstrap, 1, "1", sent.get(1).size() - 1, broker))
            .as("partition 1, from offset 1").isEqualTo(sent.get(1).subList(1, sent.get(1).size()));

        deleteRecordsOfPartition0(bootstrap, broker);
        List<String> afterDelete = sent.get(0).subList((int) DELETED_UP_TO, sent.get(0).size());
        assertThat(consume(bootstrap, 0, "earliest", afterDelete.size(), broker))
            .as("partition 0 after DeleteRecords").isEqualTo(afterDelete);

        assertStopsCleanly(broker);
        assertSegmentFiles(dataDir, sent);

        // Restart over the same data, the quick-start way: no config argument, so the install's
        // config/server.properties, whose log.dirs=./data resolves against the working directory
        // (tmp, so tmp/data again); --override moves the listener off :9092.
        assertThat(dataDir).isEqualTo(tmp.resolve("data"));
        BrokerProcess restarted = startBroker(
            "--override", "listeners=PLAINTEXT://" + bootstrap,
            "--override", "advertised.listeners=PLAINTEXT://" + bootstrap,
            "--override", "admin.listener=http://127.0.0.1:0");
        restarted.awaitReady(HOST, port);
        assertThat(offsets(bootstrap, "-1", restarted)).as("latest offsets after restart").isEqualTo(expectedEnds);
        Map<Integer, Long> expectedStarts = zeros();
        expectedStarts.put(0, DELETED_UP_TO);
        assertThat(offsets(bootstrap, "-2", restarted)).as("earliest offsets after restart").isEqualTo(expectedStarts);
        assertThat(consume(bootstrap, 2, "earliest", sent.get(2).size(), restarted))
            .as("partition 2 after restart").isEqualTo(sent.get(2));
        assertThat(consume(bootstrap, 0, "earliest", afterDelete.size(), restarted))
            .as("partition 0 after restart").isEqualTo(afterDelete);
        assertStopsCleanly(restarted);
    }

    @Test
    void refusesAMalformedConfigValueWithOneLineNamingTheKey() throws Exception {
        Path config = writeConfig(Map.of(
            "listeners", "PLAINTEXT://" + HOST + ":" + freePort(),
            "log.dirs", tmp.resolve("data").toString(),
            "num.partitions", "abc"));

        BrokerProcess broker = startBroker(config.toString());
        int exitCode = broker.awaitExit();

        String output = Files.readString(brokerLogs.get(0));
        assertThat(exitCode).as("exit code\n%s", output).isNotZero();
        assertThat(output.lines().filter(l -> l.contains("num.partitions") && l.contains("abc")))
            .as("a line naming the key and the value\n%s", output).hasSize(1);
        assertThat(output).as("no stack trace for a config mistake").doesNotContain("\tat ");
    }

    @Test
    void logsInKafkasConsoleLayoutByDefaultAndFollowsConfigLogbackXmlWhenPresent() throws Exception {
        int port = freePort();
        String bootstrap = HOST + ":" + port;
        Path config = writeConfig(Map.of(
            "listeners", "PLAINTEXT://" + bootstrap,
            "advertised.listeners", "PLAINTEXT://" + bootstrap,
            "log.dirs", tmp.resolve("data").toString()));

        BrokerProcess builtIn = startBroker(config.toString());
        builtIn.awaitReady(HOST, port);
        assertStopsCleanly(builtIn);
        assertThat(Files.readString(brokerLogs.get(0)).lines())
            .as("the built-in console layout, as config/logback-example.xml spells it\n%s", builtIn.output())
            .anyMatch(l -> l.matches("\\[\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3}] INFO  \\[main] "
                + "io\\.kaas\\.broker\\.KaasBroker - kaas broker 1 started: .*"))
            .noneMatch(l -> l.contains("org.pf4j"));

        String example = Files.readString(install.resolve("config/logback-example.xml"));
        String custom = example.replace("<pattern>", "<pattern>CUSTOM ");
        assertThat(custom).as("the example's pattern element").isNotEqualTo(example);
        Files.writeString(install.resolve("config/logback.xml"), custom);
        BrokerProcess configured = startBroker(config.toString());
        configured.awaitReady(HOST, port);
        assertStopsCleanly(configured);
        assertThat(Files.readString(brokerLogs.get(1)).lines())
            .as("config/logback.xml is used when present\n%s", configured.output())
            .anyMatch(l -> l.startsWith("CUSTOM [") && l.contains("kaas broker 1 started"));
    }

    private void createListAndDescribe(String bootstrap, BrokerProcess broker) throws Exception {
        CliTool.Result create = tool(broker, "org.apache.kafka.tools.TopicCommand", "--bootstrap-server", bootstrap,
            "--create", "--topic", TOPIC, "--partitions", String.valueOf(PARTITIONS), "--replication-factor", "1");
        assertThat(create.stdout()).as(create.toString()).contains("Created topic " + TOPIC + ".");

        CliTool.Result list = tool(broker, "org.apache.kafka.tools.TopicCommand", "--bootstrap-server", bootstrap,
            "--list");
        assertThat(list.stdoutLines()).as(list.toString()).contains(TOPIC);

        CliTool.Result describe = tool(broker, "org.apache.kafka.tools.TopicCommand", "--bootstrap-server", bootstrap,
            "--describe", "--topic", TOPIC);
        assertThat(describe.stdout()).as(describe.toString())
            .contains("Topic: " + TOPIC)
            .contains("PartitionCount: " + PARTITIONS)
            .contains("ReplicationFactor: 1");
        for (int p = 0; p < PARTITIONS; p++) {
            assertThat(describe.stdout()).as(describe.toString()).containsPattern("Partition: " + p + "\\s+Leader: \\d+");
        }
    }

    /** Produces keyed records; returns the "key:value" lines each partition should hold, in order. */
    private Map<Integer, List<String>> produce(String bootstrap, BrokerProcess broker) throws Exception {
        Map<Integer, List<String>> byPartition = new TreeMap<>();
        for (int p = 0; p < PARTITIONS; p++) {
            byPartition.put(p, new ArrayList<>());
        }
        StringBuilder stdin = new StringBuilder();
        for (int i = 0; i < RECORDS; i++) {
            String line = "key-" + i + ":value-" + i;
            stdin.append(line).append('\n');
            byPartition.get(partitionOf("key-" + i)).add(line);
        }
        assertThat(byPartition.values()).as("the keys spread over every partition")
            .allMatch(lines -> lines.size() > DELETED_UP_TO);

        CliTool.Result produce = tools.runWithInput("org.apache.kafka.tools.ConsoleProducer", stdin.toString(),
            "--bootstrap-server", bootstrap, "--topic", TOPIC,
            "--reader-property", "parse.key=true", "--reader-property", "key.separator=:",
            "--producer-property", "acks=all");
        assertSucceeded(produce, broker);
        return byPartition;
    }

    private List<String> consume(String bootstrap, int partition, String offset, int count, BrokerProcess broker)
            throws Exception {
        CliTool.Result consume = tool(broker, "org.apache.kafka.tools.consumer.ConsoleConsumer",
            "--bootstrap-server", bootstrap, "--topic", TOPIC,
            "--partition", String.valueOf(partition), "--offset", offset,
            "--max-messages", String.valueOf(count), "--timeout-ms", "30000",
            "--formatter-property", "print.key=true", "--formatter-property", "key.separator=:");
        assertThat(consume.stderr()).as(consume.toString()).contains("Processed a total of " + count + " messages");
        return consume.stdoutLines();
    }

    private void deleteRecordsOfPartition0(String bootstrap, BrokerProcess broker) throws Exception {
        Path json = Files.writeString(toolsDir.resolve("delete-records.json"),
            "{\"version\": 1, \"partitions\": [{\"topic\": \"" + TOPIC + "\", \"partition\": 0, \"offset\": "
                + DELETED_UP_TO + "}]}");
        CliTool.Result delete = tool(broker, "org.apache.kafka.tools.DeleteRecordsCommand",
            "--bootstrap-server", bootstrap, "--offset-json-file", json.toString());
        assertThat(delete.stdout()).as(delete.toString())
            .contains("partition: " + TOPIC + "-0\tlow_watermark: " + DELETED_UP_TO);
        assertThat(offsets(bootstrap, "-2", broker)).as("earliest offsets after DeleteRecords")
            .containsEntry(0, DELETED_UP_TO);
    }

    /** GetOffsetShell --time -1 (latest) or -2 (earliest), as partition → offset. */
    private Map<Integer, Long> offsets(String bootstrap, String time, BrokerProcess broker) throws Exception {
        CliTool.Result shell = tool(broker, "org.apache.kafka.tools.GetOffsetShell",
            "--bootstrap-server", bootstrap, "--topic", TOPIC, "--time", time);
        Map<Integer, Long> offsets = new TreeMap<>();
        for (String line : shell.stdoutLines()) {
            Matcher m = OFFSET_LINE.matcher(line);
            assertThat(m.matches()).as("unexpected line '%s' in\n%s", line, shell).isTrue();
            offsets.put(Integer.parseInt(m.group(1)), Long.parseLong(m.group(2)));
        }
        return offsets;
    }

    /** The stopped broker left its data where log.dirs said: {@code <data>/<topic>/<partition>/*.log}. */
    private void assertSegmentFiles(Path dataDir, Map<Integer, List<String>> sent) throws IOException {
        for (int p : sent.keySet()) {
            Path partitionDir = dataDir.resolve(TOPIC).resolve(String.valueOf(p));
            assertThat(partitionDir).as("partition directory (data dir holds: %s)", listing(dataDir)).isDirectory();
            long logBytes;
            try (Stream<Path> files = Files.list(partitionDir)) {
                logBytes = files.filter(f -> f.getFileName().toString().endsWith(".log"))
                    .mapToLong(f -> f.toFile().length()).sum();
            }
            assertThat(logBytes).as("bytes in %s/*.log (data dir holds: %s)", partitionDir, listing(dataDir))
                .isPositive();
        }
    }

    /** SIGTERM: exit code 0, and Netty's paranoid leak detector (KAAS_OPTS) reported nothing. */
    private static void assertStopsCleanly(BrokerProcess broker) throws Exception {
        int exitCode = broker.stop();
        String output = broker.output();
        assertThat(exitCode).as("exit code after SIGTERM\n%s", output).isZero();
        assertThat(output).as("Netty leak reports").doesNotContain("LEAK:");
    }

    private CliTool.Result tool(BrokerProcess broker, String mainClass, String... args) throws Exception {
        CliTool.Result result = tools.run(mainClass, args);
        assertSucceeded(result, broker);
        return result;
    }

    private static void assertSucceeded(CliTool.Result result, BrokerProcess broker) throws IOException {
        assertThat(result.exitCode()).as("%s\n%s", result, broker.output()).isZero();
    }

    private BrokerProcess startBroker(String... args) throws IOException {
        Path log = tmp.resolve("broker-" + (brokerLogs.size() + 1) + ".log");
        BrokerProcess broker = BrokerProcess.start(install, tmp, log, args);
        brokers.add(broker);
        brokerLogs.add(log);
        return broker;
    }

    /** A config file with {@code node.id=1} and {@code settings}; everything else at its default. */
    private Path writeConfig(Map<String, String> settings) throws IOException {
        Map<String, String> all = new TreeMap<>(settings);
        all.put("node.id", "1");
        // An ephemeral admin endpoint, so no test takes 9644.
        all.putIfAbsent("admin.listener", "http://127.0.0.1:0");
        String text = all.entrySet().stream()
            .map(e -> e.getKey() + "=" + e.getValue())
            .collect(Collectors.joining("\n", "", "\n"));
        return Files.writeString(tmp.resolve("server.properties"), text, StandardCharsets.UTF_8);
    }

    /** The partition the Java producer's default partitioner picks for a keyed record. */
    private static int partitionOf(String key) {
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % PARTITIONS;
    }

    private static Map<Integer, Long> zeros() {
        Map<Integer, Long> zeros = new TreeMap<>();
        for (int p = 0; p < PARTITIONS; p++) {
            zeros.put(p, 0L);
        }
        return zeros;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
    }

    private static String listing(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return "<no such directory>";
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.map(f -> dir.relativize(f).toString()).sorted().collect(Collectors.joining(", "));
        }
    }
}
