package io.kaas.broker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.kaas.api.storage.ProducerExpiration;
import io.kaas.coordinator.group.GroupCoordinatorConfig;
import io.kaas.coordinator.transaction.TransactionConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BrokerConfigTest {

    private static final Map<String, String> LOCAL = Map.of("listeners", "PLAINTEXT://127.0.0.1:0");

    @Test
    void defaultsFollowKafkaWithKaasExceptions() {
        BrokerConfig c = BrokerConfig.of(LOCAL);
        assertThat(c.nodeId()).isEqualTo(1);
        assertThat(c.logDir()).isEqualTo(Path.of("./data"));
        assertThat(c.autoCreateTopicsEnable()).isFalse();
        assertThat(c.numPartitions()).isEqualTo(1);
        assertThat(c.defaultReplicationFactor()).isEqualTo((short) 1);
        assertThat(c.deleteTopicEnable()).isTrue();
        assertThat(c.messageMaxBytes()).isEqualTo(1048588);
        assertThat(c.logSegmentBytes()).isEqualTo(1 << 30);
        assertThat(c.logRollMs()).isEqualTo(168L * 3600 * 1000);
        assertThat(c.logRetentionMs()).isEqualTo(168L * 3600 * 1000);
        assertThat(c.logRetentionBytes()).isEqualTo(-1);
        assertThat(c.logFlushIntervalMessages()).isEqualTo(1);
        assertThat(c.logFlushIntervalMs()).isEqualTo(Long.MAX_VALUE);
        assertThat(c.logMessageTimestampType()).isEqualTo("CreateTime");
        assertThat(c.logCleanupPolicy()).isEqualTo("delete");
        assertThat(c.socketRequestMaxBytes()).isEqualTo(104857600);
        assertThat(c.numNetworkThreads()).isEqualTo(3);
        assertThat(c.numIoThreads()).isEqualTo(8);
        assertThat(c.storageEngine()).isEqualTo("segments");
        assertThat(c.clusterStore()).isEqualTo("files");
        assertThat(c.authorizer()).isEqualTo("none");
        assertThat(c.unknownKeys()).isEmpty();
    }

    @Test
    void defaultListenerIsPlaintext9092AdvertisedWithTheHostName() {
        BrokerConfig c = BrokerConfig.defaults();
        assertThat(c.listeners()).containsExactly(new Listener("PLAINTEXT", "", 9092));
        assertThat(c.advertisedListeners()).hasSize(1);
        assertThat(c.advertisedListeners().get(0).host()).isNotEmpty();
        assertThat(c.advertisedListeners().get(0).port()).isEqualTo(9092);
    }

    @Test
    void advertisedListenersDefaultToListeners() {
        BrokerConfig c = BrokerConfig.of(LOCAL);
        assertThat(c.advertisedListeners()).containsExactly(new Listener("PLAINTEXT", "127.0.0.1", 0));
    }

    @Test
    void controllerListenersAreNotBound() {
        BrokerConfig c = BrokerConfig.of(Map.of(
            "listeners", "PLAINTEXT://:9092,CONTROLLER://:9093",
            "advertised.listeners", "PLAINTEXT://localhost:9092,CONTROLLER://localhost:9093",
            "controller.listener.names", "CONTROLLER"));
        assertThat(c.listeners()).containsExactly(new Listener("PLAINTEXT", "", 9092));
        assertThat(c.advertisedListeners()).containsExactly(new Listener("PLAINTEXT", "localhost", 9092));
    }

    @Test
    void derivedTimesTakeTheMostPreciseKey() {
        BrokerConfig c = BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0",
            "log.retention.hours", "1", "log.retention.minutes", "2", "log.roll.hours", "3"));
        assertThat(c.logRetentionMs()).isEqualTo(120_000);
        assertThat(c.logRollMs()).isEqualTo(3 * 3_600_000L);
        BrokerConfig ms = BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0",
            "log.retention.minutes", "2", "log.retention.ms", "-1", "log.roll.ms", "5000"));
        assertThat(ms.logRetentionMs()).isEqualTo(-1);
        assertThat(ms.logRollMs()).isEqualTo(5000);
    }

    @Test
    void logDirsWinsOverLogDirAndTheFirstEntryIsUsed() {
        assertThat(BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0", "log.dir", "/a",
            "log.dirs", "/b, /c")).logDir()).isEqualTo(Path.of("/b"));
        assertThat(BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0", "log.dir", "/a")).logDir())
            .isEqualTo(Path.of("/a"));
    }

    @Test
    void fileThenOverridesThenDefaults(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("server.properties");
        Files.writeString(file, "node.id=7\nnum.partitions=3\nlisteners=PLAINTEXT://127.0.0.1:0\n");
        BrokerConfig c = BrokerConfig.fromArgs(file.toString(), "--override", "num.partitions=5",
            "--override", "auto.create.topics.enable=true");
        assertThat(c.nodeId()).isEqualTo(7);
        assertThat(c.numPartitions()).isEqualTo(5);
        assertThat(c.autoCreateTopicsEnable()).isTrue();
        assertThat(c.numIoThreads()).isEqualTo(8);
    }

    @Test
    void malformedValueNamesTheKeyOnOneLine() {
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("num.partitions", "three")))
            .isInstanceOf(ConfigException.class)
            .hasMessageContaining("num.partitions")
            .hasMessageContaining("three")
            .hasMessageNotContaining("\n")
            .extracting(e -> ((ConfigException) e).key()).isEqualTo("num.partitions");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("delete.topic.enable", "yes")))
            .hasMessageContaining("delete.topic.enable");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("message.max.bytes", "99999999999")))
            .hasMessageContaining("message.max.bytes");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("listeners", "localhost:9092")))
            .hasMessageContaining("listeners");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("log.message.timestamp.type", "Whenever")))
            .hasMessageContaining("log.message.timestamp.type");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("num.io.threads", "0")))
            .hasMessageContaining("num.io.threads");
    }

    @Test
    void badArgumentsAreOneLineErrors(@TempDir Path dir) {
        assertThatThrownBy(() -> BrokerConfig.fromArgs("--override")).isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> BrokerConfig.fromArgs("--override", "novalue")).hasMessageContaining("key=value");
        assertThatThrownBy(() -> BrokerConfig.fromArgs(dir.resolve("missing.properties").toString()))
            .hasMessageContaining("does not exist");
    }

    @Test
    void unknownKeysAreReportedAndStockKafkaKeysAccepted() {
        BrokerConfig c = BrokerConfig.of(Map.of(
            "listeners", "PLAINTEXT://127.0.0.1:0",
            "process.roles", "broker,controller",
            "controller.quorum.voters", "1@localhost:9093",
            "transaction.state.log.min.isr", "1",
            "zookeeper.connect", "x",
            "storage.segments.index.interval.bytes", "4096",
            "cluster.files.something", "1",
            "no.such.key", "1",
            "log.retention.chek.interval.ms", "1"));
        assertThat(c.unknownKeys()).containsExactly("log.retention.chek.interval.ms", "no.such.key");
        assertThat(c.ignoredKeys()).contains("process.roles", "controller.quorum.voters")
            .as("handed to the cluster store").doesNotContain("zookeeper.connect");
    }

    @Test
    void theClusterStoreGetsKafkasZookeeperKeysUnderTheirFullNamesAndItsOwnWithThePrefixRemoved() {
        BrokerConfig c = BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0",
            "zookeeper.connect", "zk1:2181/kaas", "zookeeper.session.timeout.ms", "6000",
            "cluster.zookeeper.zookeeper.session.timeout.ms", "9000", "cluster.zookeeper.extra", "1",
            "cluster.files.other", "2", "broker.rack", "r1"));
        assertThat(c.clusterStoreConfig("zookeeper").asMap()).containsOnly(Map.entry("zookeeper.connect", "zk1:2181/kaas"),
            Map.entry("zookeeper.session.timeout.ms", "9000"), Map.entry("extra", "1"));
        assertThat(c.clusterStoreConfig("files").asMap()).containsOnly(Map.entry("zookeeper.connect", "zk1:2181/kaas"),
            Map.entry("zookeeper.session.timeout.ms", "6000"), Map.entry("other", "2"));
        assertThat(c.rack()).contains("r1");
        assertThat(BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0")).rack()).isEmpty();
        assertThat(c.unknownKeys()).isEmpty();
    }

    @Test
    void backendSettingsPassThroughWithThePrefixRemoved() {
        BrokerConfig c = BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0",
            "storage.segments.index.interval.bytes", "4096", "storage.engine", "segments"));
        assertThat(c.backendConfig("storage.segments.").asMap()).containsExactly(Map.entry("index.interval.bytes", "4096"));
    }

    @Test
    void entriesListEveryKnownKeyWithTypeAndDefaultFlag() {
        BrokerConfig c = BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0", "num.partitions", "4"));
        assertThat(c.entries()).extracting(ConfigEntry::name)
            .contains("node.id", "auto.create.topics.enable", "log.retention.ms", "storage.engine");
        ConfigEntry partitions = c.entries().stream().filter(e -> e.name().equals("num.partitions")).findFirst().get();
        assertThat(partitions).isEqualTo(new ConfigEntry("num.partitions", "4", false, false, "INT",
            partitions.documentation()));
        ConfigEntry policy = c.entries().stream().filter(e -> e.name().equals("log.cleanup.policy")).findFirst().get();
        assertThat(policy.type()).isEqualTo("LIST");
        assertThat(policy.isDefault()).isTrue();
        assertThat(c.entries()).allSatisfy(e -> assertThat(e.documentation()).isNotBlank());
    }

    @Test
    void brokerIdIsAcceptedForNodeId() {
        assertThat(BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0", "broker.id", "4")).nodeId())
            .isEqualTo(4);
    }

    @Test
    void groupCoordinatorSettingsAreTheTypedGroupAndOffsetsKeys() {
        assertThat(BrokerConfig.of(LOCAL).groupCoordinator()).isEqualTo(GroupCoordinatorConfig.defaults());
        Map<String, String> values = new HashMap<>(LOCAL);
        values.put("group.min.session.timeout.ms", "1000");
        values.put("group.max.session.timeout.ms", "60000");
        values.put("group.initial.rebalance.delay.ms", "0");
        values.put("group.max.size", "10");
        values.put("offsets.retention.minutes", "60");
        values.put("offsets.retention.check.interval.ms", "5000");
        values.put("offset.metadata.max.bytes", "100");
        values.put("group.consumer.session.timeout.ms", "10000");
        values.put("group.consumer.heartbeat.interval.ms", "500");
        values.put("group.consumer.min.session.timeout.ms", "10000");
        values.put("group.consumer.min.heartbeat.interval.ms", "500");
        values.put("group.consumer.max.size", "3");
        values.put("group.consumer.assignors", " org.apache.kafka.coordinator.group.assignor.RangeAssignor, uniform,range ");
        assertThat(BrokerConfig.of(values).groupCoordinator()).isEqualTo(new GroupCoordinatorConfig(1000, 60000, 0, 10,
            3_600_000L, 5000, 100, 10000, 500, 3, List.of("range", "uniform"),
            new GroupCoordinatorConfig.ConsumerBounds(10000, 60000, 500, 15000)));
        assertThat(BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0", "group.consumer.assignors", " "))
            .groupCoordinator().consumerAssignors()).containsExactly("uniform", "range");
    }

    @Test
    void badGroupSettingsNameTheKey() {
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0",
                "group.consumer.assignors", "uniform,sticky")))
            .isInstanceOf(ConfigException.class).hasMessageContaining("sticky")
            .extracting(e -> ((ConfigException) e).key()).isEqualTo("group.consumer.assignors");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0",
                "group.consumer.assignors", ",")))
            .extracting(e -> ((ConfigException) e).key()).isEqualTo("group.consumer.assignors");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0",
                "group.consumer.min.session.timeout.ms", "5000",
                "group.consumer.session.timeout.ms", "5000", "group.consumer.heartbeat.interval.ms", "5000")))
            .hasMessageContaining("group.consumer.heartbeat.interval.ms must be less than "
                + "group.consumer.session.timeout.ms")
            .extracting(e -> ((ConfigException) e).key()).isEqualTo("group.consumer.heartbeat.interval.ms");
        // Kafka 4.4 refuses start-up when a default lies outside its bounds, with its message
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0",
                "group.consumer.heartbeat.interval.ms", "500")))
            .hasMessageContaining("group.consumer.heartbeat.interval.ms must be greater than or equal to "
                + "group.consumer.min.heartbeat.interval.ms")
            .extracting(e -> ((ConfigException) e).key()).isEqualTo("group.consumer.heartbeat.interval.ms");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0",
                "group.consumer.heartbeat.interval.ms", "16000")))
            .hasMessageContaining("group.consumer.heartbeat.interval.ms must be less than or equal to "
                + "group.consumer.max.heartbeat.interval.ms");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0",
                "group.consumer.session.timeout.ms", "10000")))
            .hasMessageContaining("group.consumer.session.timeout.ms must be greater than or equal to "
                + "group.consumer.min.session.timeout.ms")
            .extracting(e -> ((ConfigException) e).key()).isEqualTo("group.consumer.session.timeout.ms");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0",
                "group.consumer.session.timeout.ms", "70000")))
            .hasMessageContaining("group.consumer.session.timeout.ms must be less than or equal to "
                + "group.consumer.max.session.timeout.ms");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0",
                "group.consumer.min.session.timeout.ms", "50000", "group.consumer.max.session.timeout.ms", "49999")))
            .extracting(e -> ((ConfigException) e).key()).isEqualTo("group.consumer.max.session.timeout.ms");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0",
                "group.consumer.min.heartbeat.interval.ms", "0")))
            .extracting(e -> ((ConfigException) e).key()).isEqualTo("group.consumer.min.heartbeat.interval.ms");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0",
                "group.consumer.min.heartbeat.interval.ms", "6000", "group.consumer.max.heartbeat.interval.ms", "5999")))
            .extracting(e -> ((ConfigException) e).key()).isEqualTo("group.consumer.max.heartbeat.interval.ms");
        assertThat(BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0",
                "group.consumer.min.session.timeout.ms", "1000", "group.consumer.max.heartbeat.interval.ms", "20000"))
            .groupCoordinator().consumerBounds())
            .isEqualTo(new GroupCoordinatorConfig.ConsumerBounds(1000, 60000, 5000, 20000));
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0", "group.max.size", "0")))
            .extracting(e -> ((ConfigException) e).key()).isEqualTo("group.max.size");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0",
                "offsets.retention.minutes", "soon")))
            .extracting(e -> ((ConfigException) e).key()).isEqualTo("offsets.retention.minutes");
    }

    @Test
    void theAssignmentAndRegexRefreshIntervalsHaveKafkasDefaultsAndReachTheCoordinator() {
        GroupCoordinatorConfig defaults = BrokerConfig.of(LOCAL).groupCoordinator();
        assertThat(defaults.consumerAssignmentIntervalMs()).isEqualTo(1000);
        assertThat(defaults.consumerRegexRefreshIntervalMs()).isEqualTo(600_000);
        GroupCoordinatorConfig set = BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0",
                "group.consumer.assignment.interval.ms", "0", "group.consumer.regex.refresh.interval.ms", "10000"))
            .groupCoordinator();
        assertThat(set.consumerAssignmentIntervalMs()).isZero();
        assertThat(set.consumerRegexRefreshIntervalMs()).isEqualTo(10_000);
        // within raised bounds
        assertThat(BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0",
                "group.consumer.min.assignment.interval.ms", "20000", "group.consumer.max.assignment.interval.ms", "30000",
                "group.consumer.assignment.interval.ms", "25000")).groupCoordinator().consumerAssignmentIntervalMs())
            .isEqualTo(25_000);
    }

    @Test
    void badAssignmentAndRegexRefreshIntervalsRefuseToStartWithKafkasMessages() {
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0",
                "group.consumer.assignment.interval.ms", "16000")))
            .isInstanceOf(ConfigException.class)
            .hasMessageContaining("group.consumer.assignment.interval.ms must be less than or equal to "
                + "group.consumer.max.assignment.interval.ms")
            .extracting(e -> ((ConfigException) e).key()).isEqualTo("group.consumer.assignment.interval.ms");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0",
                "group.consumer.min.assignment.interval.ms", "2000")))
            .hasMessageContaining("group.consumer.assignment.interval.ms must be greater than or equal to "
                + "group.consumer.min.assignment.interval.ms")
            .extracting(e -> ((ConfigException) e).key()).isEqualTo("group.consumer.assignment.interval.ms");
        // the bounds first, as Kafka 4.4
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0",
                "group.consumer.min.assignment.interval.ms", "500", "group.consumer.max.assignment.interval.ms", "400")))
            .hasMessageContaining("group.consumer.max.assignment.interval.ms must be greater than or equal to "
                + "group.consumer.min.assignment.interval.ms")
            .extracting(e -> ((ConfigException) e).key()).isEqualTo("group.consumer.max.assignment.interval.ms");
        for (String key : List.of("group.consumer.assignment.interval.ms", "group.consumer.min.assignment.interval.ms",
                "group.consumer.max.assignment.interval.ms")) {
            assertThatThrownBy(() -> BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0", key, "-1")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("at least 0")
                .extracting(e -> ((ConfigException) e).key()).isEqualTo(key);
            assertThatThrownBy(() -> BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0", key, "soon")))
                .extracting(e -> ((ConfigException) e).key()).isEqualTo(key);
        }
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0",
                "group.consumer.regex.refresh.interval.ms", "9999")))
            .isInstanceOf(ConfigException.class).hasMessageContaining("at least 10000")
            .extracting(e -> ((ConfigException) e).key()).isEqualTo("group.consumer.regex.refresh.interval.ms");
    }

    @Test
    void theTransactionKeysHaveKafkasDefaultsAndTransactionVersionDefaultsToTwo() {
        BrokerConfig c = BrokerConfig.of(LOCAL);
        assertThat(c.transactionCoordinator()).isEqualTo(TransactionConfig.defaults());
        assertThat(c.transactionStateLogSegmentBytes()).isEqualTo(104857600);
        assertThat(c.transactionVersion()).isEqualTo((short) 2);

        Map<String, String> set = new HashMap<>(LOCAL);
        set.putAll(Map.of("transaction.max.timeout.ms", "60000", "transaction.state.log.num.partitions", "3",
                "transactional.id.expiration.ms", "1000", "transaction.abort.timed.out.transaction.cleanup.interval.ms", "200",
                "transaction.remove.expired.transaction.cleanup.interval.ms", "300", "transaction.version", "1",
                "transaction.state.log.segment.bytes", "1048576"));
        BrokerConfig custom = BrokerConfig.of(set);
        assertThat(custom.transactionCoordinator()).isEqualTo(new TransactionConfig(60000, 3, 1000, 200, 300));
        assertThat(custom.transactionVersion()).isEqualTo((short) 1);
        assertThat(custom.transactionStateLogSegmentBytes()).isEqualTo(1048576);
        assertThat(custom.unknownKeys()).isEmpty();
    }

    @Test
    void aTransactionVersionOtherThanOneOrTwoRefusesToStart() {
        for (String bad : List.of("0", "3", "-1", "two")) {
            Map<String, String> set = new HashMap<>(LOCAL);
            set.put("transaction.version", bad);
            assertThatThrownBy(() -> BrokerConfig.of(set)).as(bad)
                .isInstanceOf(ConfigException.class)
                .extracting(e -> ((ConfigException) e).key()).isEqualTo("transaction.version");
        }
        Map<String, String> tinySegments = new HashMap<>(LOCAL);
        tinySegments.put("transaction.state.log.segment.bytes", "1048575");
        assertThatThrownBy(() -> BrokerConfig.of(tinySegments)).as("below segment.bytes' minimum, the topic could not be made")
            .extracting(e -> ((ConfigException) e).key()).isEqualTo("transaction.state.log.segment.bytes");
        Map<String, String> zeroPartitions = new HashMap<>(LOCAL);
        zeroPartitions.put("transaction.state.log.num.partitions", "0");
        assertThatThrownBy(() -> BrokerConfig.of(zeroPartitions))
            .extracting(e -> ((ConfigException) e).key()).isEqualTo("transaction.state.log.num.partitions");
    }

    @Test
    void theOffsetsTopicKeysHaveKafkasDefaultsAndRefuseBadValuesNamingTheKey() {
        BrokerConfig c = BrokerConfig.of(LOCAL);
        assertThat(c.offsetsTopicPartitions()).isEqualTo(50);
        assertThat(c.offsetsTopicSegmentBytes()).isEqualTo(104857600);
        Map<String, String> set = new HashMap<>(LOCAL);
        set.putAll(Map.of("offsets.topic.num.partitions", "7", "offsets.topic.segment.bytes", "1048576",
                "offsets.topic.replication.factor", "3"));
        BrokerConfig custom = BrokerConfig.of(set);
        assertThat(custom.offsetsTopicPartitions()).isEqualTo(7);
        assertThat(custom.offsetsTopicSegmentBytes()).isEqualTo(1048576);
        assertThat(custom.unknownKeys()).isEmpty();
        for (Map.Entry<String, String> bad : List.of(Map.entry("offsets.topic.num.partitions", "0"),
                Map.entry("offsets.topic.num.partitions", "many"), Map.entry("offsets.topic.segment.bytes", "1048575"))) {
            Map<String, String> wrong = new HashMap<>(LOCAL);
            wrong.put(bad.getKey(), bad.getValue());
            assertThatThrownBy(() -> BrokerConfig.of(wrong)).as(bad.toString())
                .isInstanceOf(ConfigException.class)
                .extracting(e -> ((ConfigException) e).key()).isEqualTo(bad.getKey());
        }
    }

    @Test
    void theProducerIdExpirationKeysHaveKafkasDefaultsAndReachTheEngineContext() {
        BrokerConfig c = BrokerConfig.of(LOCAL);
        assertThat(c.producerExpiration()).isEqualTo(ProducerExpiration.KAFKA_DEFAULTS);
        assertThat(c.producerExpiration()).isEqualTo(new ProducerExpiration(86400000, 600000));

        Map<String, String> set = new HashMap<>(LOCAL);
        set.put("producer.id.expiration.ms", "3600000");
        set.put("producer.id.expiration.check.interval.ms", "1000");
        BrokerConfig custom = BrokerConfig.of(set);
        assertThat(custom.producerExpiration()).isEqualTo(new ProducerExpiration(3600000, 1000));
        assertThat(custom.unknownKeys()).isEmpty();
        assertThat(custom.entries()).filteredOn(e -> e.name().startsWith("producer.id.expiration"))
            .extracting(ConfigEntry::name, ConfigEntry::value)
            .containsExactly(tuple("producer.id.expiration.ms", "3600000"),
                tuple("producer.id.expiration.check.interval.ms", "1000"));
    }

    @Test
    void theImplicitAddRetryHasKafkasDefaultsAndRefusesBadValuesNamingTheKey() {
        assertThat(BrokerConfig.of(LOCAL).implicitAddRetry()).isEqualTo(new BrokerConfig.ImplicitAddRetry(20, 100));
        Map<String, String> set = new HashMap<>(LOCAL);
        set.put("add.partitions.to.txn.retry.backoff.ms", "5");
        set.put("add.partitions.to.txn.retry.backoff.max.ms", "0");
        assertThat(BrokerConfig.of(set).implicitAddRetry()).isEqualTo(new BrokerConfig.ImplicitAddRetry(5, 0));
        Map<String, List<String>> bad = Map.of("add.partitions.to.txn.retry.backoff.ms", List.of("0", "-1", "soon", ""),
            "add.partitions.to.txn.retry.backoff.max.ms", List.of("-1", "later", "2147483648"));
        bad.forEach((key, values) -> values.forEach(value -> {
            Map<String, String> c = new HashMap<>(LOCAL);
            c.put(key, value);
            assertThatThrownBy(() -> BrokerConfig.of(c)).as(key + "=" + value)
                .isInstanceOf(ConfigException.class)
                .extracting(e -> ((ConfigException) e).key()).isEqualTo(key);
        }));
    }

    @Test
    void aNegativeZeroOrNonNumericProducerIdExpirationRefusesToStartNamingTheKey() {
        for (String key : List.of("producer.id.expiration.ms", "producer.id.expiration.check.interval.ms")) {
            for (String bad : List.of("-1", "0", "one day", "", "2147483648")) {
                Map<String, String> set = new HashMap<>(LOCAL);
                set.put(key, bad);
                assertThatThrownBy(() -> BrokerConfig.of(set)).as(key + "=" + bad)
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining(key)
                    .extracting(e -> ((ConfigException) e).key()).isEqualTo(key);
            }
        }
    }

    @Test
    void theStateLogReplicationKeysAreAcceptedWithoutEffect() {
        Map<String, String> set = new HashMap<>(LOCAL);
        set.put("transaction.state.log.replication.factor", "3");
        set.put("transaction.state.log.min.isr", "2");
        BrokerConfig c = BrokerConfig.of(set);
        assertThat(c.ignoredKeys()).containsExactly("transaction.state.log.min.isr",
                "transaction.state.log.replication.factor");
        assertThat(c.unknownKeys()).isEmpty();
    }

    private static final Set<String> SEGMENT_KEYS = Set.of("retention.check.interval.ms", "flush.interval.ms",
            "committer.threads");
    private static final Set<String> ROCKS_KEYS = Set.of("retention.check.interval.ms", "block.cache.bytes");

    @Test
    void theLogCleanersKeysReachTheSegmentsEngineStaticallyAndWithTheirDynamicValues() {
        Set<String> segmentKeys = Set.of("cleaner.threads", "cleaner.io.max.bytes.per.second", "cleaner.backoff.ms");
        Map<String, String> set = new HashMap<>(LOCAL);
        set.put("log.cleaner.threads", "2");
        set.put("log.cleaner.backoff.ms", "500");
        BrokerConfig c = BrokerConfig.of(set);
        assertThat(c.unknownKeys()).isEmpty();
        assertThat(c.ignoredKeys()).as("no longer accepted without effect").isEmpty();
        assertThat(c.engineConfig("segments", segmentKeys).asMap()).containsOnly(Map.entry("cleaner.threads", "2"),
                Map.entry("cleaner.backoff.ms", "500"));
        assertThat(c.engineConfig("segments", segmentKeys, Map.of("log.cleaner.threads", "3",
                "log.cleaner.io.max.bytes.per.second", "1048576")).asMap()).as("dynamic over static").containsOnly(
                Map.entry("cleaner.threads", "3"), Map.entry("cleaner.backoff.ms", "500"),
                Map.entry("cleaner.io.max.bytes.per.second", "1048576.0"));
        assertThat(c.keysWithoutEffect("segments", segmentKeys)).isEmpty();
        assertThat(c.keysWithoutEffect("rocksdb", ROCKS_KEYS)).as("rocksdb does not compact")
                .containsExactly("log.cleaner.backoff.ms", "log.cleaner.threads");

        set.put("storage.segments.cleaner.threads", "4");
        BrokerConfig own = BrokerConfig.of(set);
        assertThat(own.engineConfig("segments", segmentKeys, Map.of("log.cleaner.threads", "3")).asMap())
                .as("the engine's own key wins, also over a dynamic value").contains(Map.entry("cleaner.threads", "4"));
    }

    @Test
    void kafkasRetentionCheckAndFlushIntervalsReachTheEngineThatReadsThemUnlessItsOwnKeyIsSet() {
        Map<String, String> set = new HashMap<>(LOCAL);
        set.put("log.retention.check.interval.ms", "1234");
        set.put("log.flush.interval.ms", "250");
        set.put("storage.segments.committer.threads", "3");
        BrokerConfig c = BrokerConfig.of(set);
        assertThat(c.unknownKeys()).isEmpty();
        assertThat(c.logRetentionCheckIntervalMs()).isEqualTo(1234);
        assertThat(c.engineConfig("segments", SEGMENT_KEYS).asMap()).containsOnly(
                Map.entry("retention.check.interval.ms", "1234"), Map.entry("flush.interval.ms", "250"),
                Map.entry("committer.threads", "3"));
        assertThat(c.engineConfig("rocksdb", ROCKS_KEYS).asMap()).as("rocksdb reads no flush interval")
                .containsOnly(Map.entry("retention.check.interval.ms", "1234"));
        assertThat(c.keysWithoutEffect("segments", SEGMENT_KEYS)).isEmpty();
        assertThat(c.keysWithoutEffect("rocksdb", ROCKS_KEYS)).containsExactly("log.flush.interval.ms");

        set.put("storage.segments.retention.check.interval.ms", "99");
        set.put("log.flush.interval.ms", "0");
        BrokerConfig own = BrokerConfig.of(set);
        assertThat(own.engineConfig("segments", SEGMENT_KEYS).asMap()).as("the engine's own key wins; 0 is 1 ms")
                .contains(Map.entry("retention.check.interval.ms", "99"), Map.entry("flush.interval.ms", "1"));
        assertThat(own.keysWithoutEffect("segments", SEGMENT_KEYS)).containsExactly("log.retention.check.interval.ms");

        BrokerConfig none = BrokerConfig.of(LOCAL);
        assertThat(none.engineConfig("segments", SEGMENT_KEYS).asMap()).as("unset: the engine keeps its defaults").isEmpty();
        assertThat(none.keysWithoutEffect("segments", SEGMENT_KEYS)).isEmpty();
    }

    @Test
    void keysWithoutEffectListsTheAcceptedUnusedAndTheDefinedOnesThatChangeNothing() {
        // queued.max.requests bounds the broker's request queue: it is read, so never listed.
        Map<String, String> set = new HashMap<>(LOCAL);
        set.put("queued.max.requests", "100");
        set.put("process.roles", "broker");
        set.put("max.incremental.fetch.session.cache.slots", "10");
        set.put("num.io.threads", "2");
        BrokerConfig c = BrokerConfig.of(set);
        assertThat(c.unknownKeys()).as("max.incremental.fetch.session.cache.slots is read").isEmpty();
        assertThat(c.maxIncrementalFetchSessionCacheSlots()).isEqualTo(10);
        assertThat(c.keysWithoutEffect("segments", SEGMENT_KEYS)).containsExactly("process.roles");
        assertThat(c.connectionLimits().queuedMaxRequests()).isEqualTo(100);
        assertThat(BrokerConfig.of(LOCAL).maxIncrementalFetchSessionCacheSlots()).as("Kafka's default").isEqualTo(1000);
    }

    @Test
    void badRetentionCheckFlushIntervalAndSessionSlotsRefuseToStartNamingTheKey() {
        Map<String, List<String>> bad = Map.of(
            "log.retention.check.interval.ms", List.of("0", "-1", "often", ""),
            "log.flush.interval.ms", List.of("-1", "never", "9223372036854775808"),
            "max.incremental.fetch.session.cache.slots", List.of("-1", "many", "2147483648"));
        bad.forEach((key, values) -> values.forEach(value -> {
            Map<String, String> c = new HashMap<>(LOCAL);
            c.put(key, value);
            assertThatThrownBy(() -> BrokerConfig.of(c)).as(key + "=" + value)
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(key)
                .extracting(e -> ((ConfigException) e).key()).isEqualTo(key);
        }));
        Map<String, String> zero = new HashMap<>(LOCAL);
        zero.put("max.incremental.fetch.session.cache.slots", "0");
        assertThat(BrokerConfig.of(zero).maxIncrementalFetchSessionCacheSlots()).as("0 disables sessions, as Kafka").isZero();
    }
}
