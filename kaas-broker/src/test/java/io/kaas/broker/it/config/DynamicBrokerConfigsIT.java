package io.kaas.broker.it.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kaas.broker.it.KafkaClients;
import io.kaas.broker.it.KafkaConfigsTool;
import io.kaas.broker.it.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.AlterConfigsOptions;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Dynamic broker configs (KIP-226): kafka-configs and the Admin client on BROKER resources, one broker. */
@Timeout(180)
class DynamicBrokerConfigsIT {
    private static final ConfigResource DEFAULT = new ConfigResource(ConfigResource.Type.BROKER, "");
    private static final ConfigResource BROKER_1 = new ConfigResource(ConfigResource.Type.BROKER, "1");

    @TempDir
    Path dir;

    private static void alter(Admin admin, ConfigResource resource, String key, String value) throws Exception {
        admin.incrementalAlterConfigs(Map.of(resource, List.of(new AlterConfigOp(new ConfigEntry(key, value),
                AlterConfigOp.OpType.SET)))).all().get(20, TimeUnit.SECONDS);
    }

    private static Config describe(Admin admin, ConfigResource resource) throws Exception {
        return admin.describeConfigs(List.of(resource), new DescribeConfigsOptions().includeSynonyms(true))
                .all().get(20, TimeUnit.SECONDS).get(resource);
    }

    private static Throwable failure(Admin admin, ConfigResource resource, String key, String value, boolean validateOnly) {
        try {
            admin.incrementalAlterConfigs(Map.of(resource, List.of(new AlterConfigOp(new ConfigEntry(key, value),
                    AlterConfigOp.OpType.SET))), new AlterConfigsOptions().validateOnly(validateOnly)).all()
                    .get(20, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void changesAreValidatedStoredDescribedWithTheirSourcesAndKeptAcrossARestart() throws Exception {
        TestBroker.Builder builder = TestBroker.builder(dir).config("log.retention.hours", "100");
        try (TestBroker broker = builder.start(); Admin admin = broker.admin()) {
            KafkaClients.createTopic(admin, "inherits", 1, Map.of());
            KafkaClients.createTopic(admin, "own", 1, Map.of("retention.ms", "1000"));

            alter(admin, DEFAULT, "log.retention.ms", "3600000");
            alter(admin, BROKER_1, "log.retention.bytes", "5000000");
            alter(admin, DEFAULT, "log.cleaner.min.cleanable.ratio", "0.7");

            ConfigResource inherits = new ConfigResource(ConfigResource.Type.TOPIC, "inherits");
            ConfigEntry retention = describe(admin, inherits).get("retention.ms");
            assertThat(retention.value()).isEqualTo("3600000");
            assertThat(retention.source()).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG);
            assertThat(describe(admin, new ConfigResource(ConfigResource.Type.TOPIC, "own")).get("retention.ms").value())
                    .isEqualTo("1000");
            assertThat(describe(admin, inherits).get("retention.bytes").source())
                    .isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG);
            ConfigEntry ratio = describe(admin, inherits).get("min.cleanable.dirty.ratio");
            assertThat(ratio.value()).isEqualTo("0.7");
            assertThat(ratio.source()).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG);

            Config node = describe(admin, BROKER_1);
            ConfigEntry ms = node.get("log.retention.ms");
            assertThat(ms.value()).isEqualTo("3600000");
            assertThat(ms.isReadOnly()).isFalse();
            assertThat(ms.synonyms()).extracting(s -> s.name() + "=" + s.value() + "@" + s.source()).containsExactly(
                    "log.retention.ms=3600000@DYNAMIC_DEFAULT_BROKER_CONFIG",
                    "log.retention.hours=100@STATIC_BROKER_CONFIG",
                    "log.retention.hours=168@DEFAULT_CONFIG");
            assertThat(node.get("node.id").isReadOnly()).isTrue();
            assertThat(describe(admin, DEFAULT).entries()).extracting(ConfigEntry::name, ConfigEntry::value, ConfigEntry::source)
                    .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("log.cleaner.min.cleanable.ratio", "0.7",
                                    ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG),
                            org.assertj.core.groups.Tuple.tuple("log.retention.ms", "3600000",
                                    ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG));

            // a key kaas does not know is stored as given, as Kafka stores it (a plugin may read it)
            alter(admin, DEFAULT, "custom.plugin.setting", "x");
            assertThat(describe(admin, DEFAULT).get("custom.plugin.setting").value()).isEqualTo("x");

            // bad input: Kafka's error, nothing changed
            assertThat(failure(admin, BROKER_1, "node.id", "7", false)).isInstanceOf(InvalidRequestException.class)
                    .hasMessage("Cannot update these configs dynamically: Set(node.id)");
            assertThat(failure(admin, DEFAULT, "log.retention.ms", "soon", false)).isInstanceOf(InvalidRequestException.class)
                    .hasMessage("Invalid value soon for configuration log.retention.ms: Not a number of type LONG");
            assertThat(failure(admin, DEFAULT, "log.cleaner.min.cleanable.ratio", "2", false))
                    .isInstanceOf(InvalidRequestException.class).hasMessage(
                            "Invalid value 2 for configuration log.cleaner.min.cleanable.ratio: Value must be no more than 1");
            assertThat(failure(admin, BROKER_1, "message.max.bytes", "-1", false)).isInstanceOf(InvalidRequestException.class)
                    .hasMessage("Invalid value -1 for configuration message.max.bytes: Value must be at least 0");
            assertThat(failure(admin, DEFAULT, "log.retention.ms", "60000", true)).isNull();
            assertThat(describe(admin, inherits).get("retention.ms").value()).isEqualTo("3600000");
            assertThat(describe(admin, BROKER_1).get("node.id").value()).isEqualTo("1");
        }
        try (TestBroker broker = builder.start(); Admin admin = broker.admin()) {
            ConfigEntry retention = describe(admin, new ConfigResource(ConfigResource.Type.TOPIC, "inherits")).get("retention.ms");
            assertThat(retention.value()).isEqualTo("3600000");
            assertThat(retention.source()).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG);
            assertThat(describe(admin, BROKER_1).get("log.retention.bytes").value()).isEqualTo("5000000");
        }
    }

    @Test
    void kafkaConfigsSetsTheDefaultAndARetentionChangeReachesAnExistingTopicWithoutARestart() throws Exception {
        try (TestBroker broker = TestBroker.builder(dir).config("log.retention.check.interval.ms", "200").start();
             Admin admin = broker.admin()) {
            KafkaClients.createTopic(admin, "old", 1, Map.of("segment.ms", "100"));
            try (KafkaProducer<String, String> producer = broker.producer()) {
                for (int i = 0; i < 4; i++) {
                    producer.send(new ProducerRecord<>("old", "k", "v" + i)).get(20, TimeUnit.SECONDS);
                    Thread.sleep(150);
                }
            }
            KafkaConfigsTool.Run set = KafkaConfigsTool.run(broker, "--entity-type", "brokers", "--entity-default",
                    "--alter", "--add-config", "log.retention.ms=1");
            assertThat(set.exitCode()).as(set.out()).isZero();

            TopicPartition tp = new TopicPartition("old", 0);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(admin.listOffsets(
                    Map.of(tp, OffsetSpec.earliest())).partitionResult(tp).get(10, TimeUnit.SECONDS).offset())
                    .isGreaterThan(0));

            KafkaConfigsTool.Run all = KafkaConfigsTool.run(broker, "--entity-type", "brokers", "--entity-name", "1",
                    "--describe", "--all");
            assertThat(all.exitCode()).as(all.out()).isZero();
            assertThat(all.out()).contains("log.retention.ms=1 sensitive=false synonyms={DYNAMIC_DEFAULT_BROKER_CONFIG:log.retention.ms=1");
            KafkaConfigsTool.Run readOnly = KafkaConfigsTool.run(broker, "--entity-type", "brokers", "--entity-name", "1",
                    "--alter", "--add-config", "num.partitions=3");
            assertThat(readOnly.exitCode()).isNotZero();
            assertThat(readOnly.out()).contains("Cannot update these configs dynamically: Set(num.partitions)");
            Collection<ConfigEntry> entries = describe(admin, BROKER_1).entries();
            assertThat(entries).filteredOn(e -> e.name().equals("num.partitions")).extracting(ConfigEntry::value)
                    .containsExactly("1");
        }
    }
}
