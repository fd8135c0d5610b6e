package io.kaas.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * The unpacked tarball with drop-in plugins, started through {@code bin/kaas-server-start.sh}: the
 * RocksDB engine it ships in {@code plugins/}, the example plugin zip dropped in by hand, and a broken
 * plugin jar that must stop start-up with one clear line. Produce and consume go through the real Java
 * clients ({@code assign()}, no group), so only the storage path is under test here.
 */
class KaasPluginsDistributionIT {

    private static final String HOST = "127.0.0.1";
    private static final String TOPIC = "plugged";
    private static final int RECORDS = 200;
    private static final String VERSION = System.getProperty("kaas.version");

    @TempDir
    Path tmp;

    private Path install;
    private final List<BrokerProcess> brokers = new ArrayList<>();
    private final List<Path> brokerLogs = new ArrayList<>();

    @BeforeEach
    void unpackTarball() throws Exception {
        assertThat(VERSION).as("system property kaas.version (set by Failsafe)").isNotBlank();
        install = Tarball.unpack(tmp);
    }

    @AfterEach
    void stopBrokersAndKeepLogs(TestInfo test) throws Exception {
        for (BrokerProcess broker : brokers) {
            broker.close();
        }
        Path keep = Files.createDirectories(Path.of(System.getProperty("kaas.it.logs", "target/it-logs"))
            .resolve(getClass().getSimpleName() + "-" + test.getTestMethod().orElseThrow().getName()));
        for (Path log : brokerLogs) {
            Files.copy(log, keep.resolve(log.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    @Test
    void servesProduceAndConsumeWithTheShippedRocksDbPluginAndLogsEveryBackendFound() throws Exception {
        Path shipped = install.resolve("plugins/kaas-engine-rocksdb-" + VERSION + ".zip");
        assertThat(shipped).as("the RocksDB engine ships as a plugin zip").isRegularFile();
        try (Stream<Path> lib = Files.list(install.resolve("lib"))) {
            assertThat(lib.map(p -> p.getFileName().toString()))
                .as("lib/ (RocksDB lives only inside its plugin)")
                .noneMatch(jar -> jar.startsWith("rocksdbjni") || jar.startsWith("kaas-engine-rocksdb"));
        }
        int port = freePort();
        Path dataDir = tmp.resolve("data");
        BrokerProcess broker = startBroker(port, dataDir, "--override", "storage.engine=rocksdb");
        broker.awaitReady(HOST, port);

        produceAndConsume(HOST + ":" + port, broker);
        assertStopsCleanly(broker);

        List<String> log = Files.readAllLines(brokerLogs.get(0));
        assertThat(log).as("the backends found, with version and origin").anySatisfy(line -> assertThat(line)
            .endsWith("Found storage engine 'segments' version " + VERSION + " from io.kaas.engine.segments"));
        assertThat(log).anySatisfy(line -> assertThat(line)
            .endsWith("Found storage engine 'rocksdb' version " + VERSION + " from plugin kaas-engine-rocksdb "
                + VERSION + " (" + shipped.toRealPath() + ")"));
        assertThat(log).anySatisfy(line -> assertThat(line)
            .endsWith("Found cluster-state store 'files' version " + VERSION + " from io.kaas.cluster.files"));
        assertThat(log).as("the started line names the engine and the data dir, normalized")
            .anySatisfy(line -> assertThat(line).contains("storage engine 'rocksdb'")
                .contains("data in " + dataDir.toRealPath() + ","));
        assertThat(dataDir.resolve("rocksdb")).as("the RocksDB database").isDirectory();
    }

    @Test
    void servesProduceAndConsumeWithTheExamplePluginZipDroppedIntoPlugins() throws Exception {
        Path zip = Path.of(System.getProperty("kaas.test.plugins"), "kaas-example-engine-" + VERSION + "-plugin.zip");
        assertThat(zip).as("the example plugin zip (maven-dependency-plugin, test-plugins)").isRegularFile();
        Files.copy(zip, install.resolve("plugins/kaas-example-engine.zip"));
        int port = freePort();
        BrokerProcess broker = startBroker(port, tmp.resolve("data"), "--override", "storage.engine=memory");
        broker.awaitReady(HOST, port);

        produceAndConsume(HOST + ":" + port, broker);
        assertStopsCleanly(broker);

        assertThat(Files.readAllLines(brokerLogs.get(0))).anySatisfy(line -> assertThat(line)
            .contains("Found storage engine 'memory' version " + VERSION + " from plugin kaas-example-engine " + VERSION)
            .endsWith("/plugins/kaas-example-engine.zip)"));
        assertThat(broker.output()).contains("storage engine 'memory'");
        assertThat(Files.readAllLines(brokerLogs.get(0))).as("the shipped plugins nobody selects stay unloaded")
            .anySatisfy(line -> assertThat(line).contains("Not loading the plugin ")
                .contains("kaas-engine-rocksdb-" + VERSION + ".zip: it provides storage.engine 'rocksdb', and "
                    + "storage.engine=memory is selected"))
            .anySatisfy(line -> assertThat(line).contains("kaas-cluster-zookeeper-" + VERSION + ".zip: it provides "
                + "cluster.store 'zookeeper', and cluster.store=files is selected"));
        assertThat(install.resolve("plugins/.work/kaas-engine-rocksdb-" + VERSION)).as("not expanded").doesNotExist();
    }

    @Test
    void refusesABrokenPluginJarWithOneLineNamingItAndTheBackendsAvailable() throws Exception {
        byte[] garbage = new byte[4096];
        new Random(42).nextBytes(garbage);
        Files.write(install.resolve("plugins/broken.jar"), garbage);
        BrokerProcess broker = startBroker(freePort(), tmp.resolve("data"));
        int exitCode = broker.awaitExit();

        String output = broker.output();
        assertThat(exitCode).as("exit code\n%s", output).isNotZero();
        List<String> lines = Files.readAllLines(brokerLogs.get(0)).stream()
            .filter(l -> l.contains("broken.jar") && l.contains("available:"))
            .toList();
        assertThat(lines).as("one line naming the plugin and the backends available\n%s", output).hasSize(1);
        assertThat(lines.get(0))
            .startsWith("kaas: Plugin broken.jar in ")
            .contains("cannot be loaded")
            .contains("; available: storage engines: rocksdb, segments; cluster-state stores: files");
        assertThat(output).as("no stack trace for a broken file").doesNotContain("\tat ");
    }

    /** Creates the topic, produces {@link #RECORDS} records at acks=all, reads them back with assign(). */
    private static void produceAndConsume(String bootstrap, BrokerProcess broker) throws Exception {
        try (Admin admin = BrokerProcess.admin(bootstrap)) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        List<String> sent = new ArrayList<>();
        Properties producerProps = new Properties();
        producerProps.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        producerProps.put(ProducerConfig.ACKS_CONFIG, "all");
        producerProps.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        try (KafkaProducer<String, String> producer =
                 new KafkaProducer<>(producerProps, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < RECORDS; i++) {
                String value = "value-" + i;
                sent.add(value);
                producer.send(new ProducerRecord<>(TOPIC, "key-" + i, value));
            }
            producer.flush();
        }

        Properties consumerProps = new Properties();
        consumerProps.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        consumerProps.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        List<String> received = new ArrayList<>();
        TopicPartition partition = new TopicPartition(TOPIC, 0);
        try (KafkaConsumer<String, String> consumer =
                 new KafkaConsumer<>(consumerProps, new StringDeserializer(), new StringDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (received.size() < RECORDS && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    received.add(record.value());
                }
            }
        }
        assertThat(received).as("records read back\n%s", broker.output()).isEqualTo(sent);
    }

    private BrokerProcess startBroker(int port, Path dataDir, String... overrides) throws IOException {
        String bootstrap = HOST + ":" + port;
        Path config = Files.writeString(tmp.resolve("server.properties"), String.join("\n",
            "node.id=1",
            "listeners=PLAINTEXT://" + bootstrap,
            "advertised.listeners=PLAINTEXT://" + bootstrap,
            "admin.listener=http://127.0.0.1:0",
            "log.dirs=" + dataDir,
            ""), StandardCharsets.UTF_8);
        List<String> args = new ArrayList<>(List.of(config.toString()));
        args.addAll(List.of(overrides));
        Path log = tmp.resolve("broker-" + (brokerLogs.size() + 1) + ".log");
        BrokerProcess broker = BrokerProcess.start(install, tmp, log, args.toArray(String[]::new));
        brokers.add(broker);
        brokerLogs.add(log);
        return broker;
    }

    private static void assertStopsCleanly(BrokerProcess broker) throws Exception {
        int exitCode = broker.stop();
        String output = broker.output();
        assertThat(exitCode).as("exit code after SIGTERM\n%s", output).isZero();
        assertThat(output).as("Netty leak reports").doesNotContain("LEAK:");
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
    }
}
