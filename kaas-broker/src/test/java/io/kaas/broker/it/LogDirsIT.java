package io.kaas.broker.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeReplicaLogDirsResult.ReplicaLogDirInfo;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionReplica;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DescribeLogDirs through the Java admin and the real {@code kafka-log-dirs} tool (LogDirsCommand): the broker's log
 * dir, the partitions it writes with their sizes, the file system's total and usable bytes (KIP-827).
 */
class LogDirsIT {
    private static final int RECORDS = 200;
    private static final int VALUE_BYTES = 1000;

    @TempDir
    Path dir;

    @Test
    void describesTheLogDirWithThePartitionsTheirSizesAndTheFileSystem() throws Exception {
        try (TestBroker broker = TestBroker.start(dir.resolve("data")); Admin admin = broker.admin()) {
            broker.createTopic("t", 2);
            broker.createTopic("other", 1);
            produce(broker, "t", 0, RECORDS);

            Map<String, LogDirDescription> dirs = admin.describeLogDirs(Set.of(1)).allDescriptions().get()
                    .get(1);
            String logDir = dir.resolve("data").toAbsolutePath().normalize().toString();
            assertThat(dirs).containsOnlyKeys(logDir);
            LogDirDescription d = dirs.get(logDir);
            assertThat(d.error()).isNull();
            ReplicaInfo written = d.replicaInfos().get(new TopicPartition("t", 0));
            long payload = (long) RECORDS * VALUE_BYTES;
            assertThat(written.size()).as("bytes of %s records of %s bytes", RECORDS, VALUE_BYTES)
                    .isBetween(payload, payload + RECORDS * 40L);
            assertThat(written.offsetLag()).isZero();
            assertThat(written.isFuture()).isFalse();
            assertThat(d.replicaInfos().get(new TopicPartition("t", 1)).size()).isZero();
            assertThat(d.replicaInfos()).containsKey(new TopicPartition("other", 0));

            FileStore fs = Files.getFileStore(dir);
            assertThat(d.totalBytes()).hasValue(fs.getTotalSpace());
            assertThat(d.usableBytes().orElseThrow()).isPositive()
                    .isCloseTo(fs.getUsableSpace(), org.assertj.core.data.Offset.offset(512L << 20));

            produce(broker, "t", 0, RECORDS);
            long after = admin.describeLogDirs(Set.of(1)).allDescriptions().get().get(1).get(logDir)
                    .replicaInfos().get(new TopicPartition("t", 0)).size();
            assertThat(after - written.size()).as("growth by a second equal produce")
                    .isBetween(payload, payload + RECORDS * 40L);

            try (TestBroker restarted = broker.restart(); Admin again = restarted.admin()) {
                Map<TopicPartition, ReplicaInfo> replicas = Awaitility.await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
                        .until(() -> again.describeLogDirs(Set.of(1)).allDescriptions().get().get(1).get(logDir)
                                .replicaInfos(), r -> r.size() == 3);
                assertThat(replicas.get(new TopicPartition("t", 0)).size()).as("after a restart").isEqualTo(after);
            }
        }
    }

    @Test
    void theRocksDbEnginesLogDirIsItsDatabaseDirectory() throws Exception {
        try (TestBroker broker = TestBroker.builder(dir).engine(TestBroker.ROCKSDB).start(); Admin admin = broker.admin()) {
            broker.createTopic("t", 1);
            produce(broker, "t", 0, 50);
            Map<String, LogDirDescription> dirs = admin.describeLogDirs(Set.of(1)).allDescriptions().get().get(1);
            String rocksdb = dir.resolve("data").resolve("rocksdb").toAbsolutePath().normalize().toString();
            assertThat(dirs).containsOnlyKeys(rocksdb);
            assertThat(dirs.get(rocksdb).replicaInfos().get(new TopicPartition("t", 0)).size())
                    .isBetween(50L * VALUE_BYTES, 50L * VALUE_BYTES + 50 * 40L);
            assertThat(dirs.get(rocksdb).totalBytes()).hasValue(Files.getFileStore(dir).getTotalSpace());
        }
    }

    @Test
    void theRequestsTopicsFilterThePartitionsAndAnUnknownTopicIsLeftOut() throws Exception {
        try (TestBroker broker = TestBroker.start(dir.resolve("data")); Admin admin = broker.admin()) {
            broker.createTopic("t", 2);
            TopicPartitionReplica known = new TopicPartitionReplica("t", 1, 1);
            TopicPartitionReplica unknownPartition = new TopicPartitionReplica("t", 7, 1);
            TopicPartitionReplica unknownTopic = new TopicPartitionReplica("missing", 0, 1);
            Map<TopicPartitionReplica, ReplicaLogDirInfo> info = admin.describeReplicaLogDirs(
                    List.of(known, unknownPartition, unknownTopic)).all().get();
            assertThat(info.get(known).getCurrentReplicaLogDir())
                    .isEqualTo(dir.resolve("data").toAbsolutePath().normalize().toString());
            assertThat(info.get(unknownPartition).getCurrentReplicaLogDir()).isNull();
            assertThat(info.get(unknownTopic).getCurrentReplicaLogDir()).isNull();
        }
    }

    @Test
    void theKafkaLogDirsToolListsTheTopicsPartitionsWithTheirSizes() throws Exception {
        try (TestBroker broker = TestBroker.start(dir.resolve("data")); Admin admin = broker.admin()) {
            broker.createTopic("t", 2);
            broker.createTopic("other", 1);
            produce(broker, "t", 1, 50);
            long size = admin.describeLogDirs(Set.of(1)).allDescriptions().get().get(1).values().iterator().next()
                    .replicaInfos().get(new TopicPartition("t", 1)).size();

            String out = runLogDirs(broker, "--describe", "--topic-list", "t");
            String json = out.lines().filter(l -> l.startsWith("{")).findFirst()
                    .orElseThrow(() -> new AssertionError("no JSON in the tool's output:\n" + out));
            JsonNode brokers = new ObjectMapper().readTree(json).get("brokers");
            assertThat(brokers).hasSize(1);
            assertThat(brokers.get(0).get("broker").asInt()).isEqualTo(1);
            JsonNode logDir = brokers.get(0).get("logDirs").get(0);
            assertThat(logDir.get("logDir").asText()).isEqualTo(dir.resolve("data").toAbsolutePath().normalize().toString());
            assertThat(logDir.get("error").isNull()).isTrue();
            List<String> partitions = new ArrayList<>();
            for (JsonNode p : logDir.get("partitions")) {
                partitions.add(p.get("partition").asText());
                if (p.get("partition").asText().equals("t-1")) {
                    assertThat(p.get("size").asLong()).isEqualTo(size).isGreaterThan(50L * VALUE_BYTES);
                    assertThat(p.get("offsetLag").asLong()).isZero();
                }
            }
            assertThat(partitions).containsExactlyInAnyOrder("t-0", "t-1");
        }
    }

    @Test
    void withoutDescribeOnTheClusterTheAnswerIsClusterAuthorizationFailed() throws Exception {
        try (TestBroker broker = TestBroker.builder(dir).acl("allow * CREATE cluster\n").start();
             Admin admin = broker.admin()) {
            assertThatThrownBy(() -> admin.describeLogDirs(Set.of(1)).allDescriptions().get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(ClusterAuthorizationException.class);
        }
    }

    @Test
    void anEngineWithoutADirectoryAnswersAnInMemoryLogDirWithTheSizesAndUnknownVolumeBytes() throws Exception {
        try (TestBroker broker = TestBroker.builder(dir).engine("memory").start(); Admin admin = broker.admin()) {
            broker.createTopic("t", 1);
            produce(broker, "t", 0, 20);
            Map<String, LogDirDescription> dirs = admin.describeLogDirs(Set.of(1)).allDescriptions().get().get(1);
            assertThat(dirs).containsOnlyKeys("(in memory: storage engine 'memory')");
            LogDirDescription d = dirs.values().iterator().next();
            assertThat(d.error()).isNull();
            assertThat(d.totalBytes()).isEmpty();
            assertThat(d.usableBytes()).isEmpty();
            assertThat(d.replicaInfos().get(new TopicPartition("t", 0)).size())
                    .isBetween(20L * VALUE_BYTES, 20L * VALUE_BYTES + 20 * 40L);
        }
    }

    private static void produce(TestBroker broker, String topic, int partition, int records) throws Exception {
        byte[] value = new byte[VALUE_BYTES];
        try (KafkaProducer<byte[], byte[]> producer = broker.bytesProducer(Map.of(ProducerConfig.LINGER_MS_CONFIG, 5,
                ProducerConfig.COMPRESSION_TYPE_CONFIG, "none"))) {
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>(topic, partition, null, value));
            }
            producer.flush();
        }
    }

    /** {@code kafka-log-dirs} (org.apache.kafka.tools.LogDirsCommand) in its own JVM, as the script runs it; 60 s at most. */
    private static String runLogDirs(TestBroker broker, String... args) throws Exception {
        String classpath = System.getProperty("java.class.path");
        String modulePath = System.getProperty("jdk.module.path");
        if (modulePath != null && !modulePath.isEmpty()) {
            classpath = classpath + File.pathSeparator + modulePath;
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", classpath, "org.apache.kafka.tools.LogDirsCommand", "--bootstrap-server", broker.bootstrap()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("kafka-log-dirs did not finish");
        }
        String text = new String(out, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as("kafka-log-dirs exit code; output:\n%s", text).isZero();
        return text;
    }
}
