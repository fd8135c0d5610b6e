package io.kaas.broker.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A topic cannot be named as an entry a backend keeps in the data directory: the file cluster store's
 * {@code __cluster}, and the RocksDB engine's {@code rocksdb} when that engine is selected. CreateTopics
 * and auto-creation through Metadata answer INVALID_TOPIC_EXCEPTION, as for any illegal name.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReservedTopicNamesIT {
    @TempDir
    Path root;

    private static void create(Admin admin, String name) throws Exception {
        admin.createTopics(List.of(new NewTopic(name, 1, (short) 1))).all().get(20, TimeUnit.SECONDS);
    }

    @Test
    void createTopicsRefusesTheClusterStoresDirectoryInAnyCase() throws Exception {
        Path data = Files.createDirectories(root.resolve("data"));
        try (TestBroker broker = TestBroker.start(data); Admin admin = broker.admin()) {
            for (String name : List.of("__cluster", "__CLUSTER", "__Cluster")) {
                assertThatThrownBy(() -> create(admin, name)).as(name)
                        .isInstanceOf(ExecutionException.class).cause()
                        .isInstanceOf(InvalidTopicException.class).hasMessageContaining("reserved");
            }
            create(admin, "__cluster2");
            create(admin, "rocksdb");

            assertThat(admin.listTopics().names().get(20, TimeUnit.SECONDS))
                    .contains("__cluster2", "rocksdb").doesNotContain("__cluster", "__CLUSTER", "__Cluster");
            // No partition directory of a topic "__cluster" among the store's files.
            assertThat(listing(data.resolve("__cluster"))).isNotEmpty().doesNotContain("0");
        }
    }

    @Test
    void autoCreationThroughMetadataRefusesAReservedName() throws Exception {
        Path data = Files.createDirectories(root.resolve("data"));
        try (TestBroker broker = TestBroker.start(data, Map.of("auto.create.topics.enable", "true"));
             Admin admin = broker.admin();
             KafkaProducer<String, String> producer = broker.producer(Map.of(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000))) {
            assertThatThrownBy(() -> producer.partitionsFor("__cluster")).isInstanceOf(InvalidTopicException.class);
            // The same broker still auto-creates a legal name.
            assertThat(producer.partitionsFor("auto-created")).hasSize(1);

            assertThat(admin.listTopics().names().get(20, TimeUnit.SECONDS))
                    .contains("auto-created").doesNotContain("__cluster");
            assertThat(listing(data.resolve("__cluster"))).doesNotContain("0");
        }
    }

    @Test
    void theRocksDbEngineReservesItsDatabaseDirectory() throws Exception {
        try (TestBroker broker = TestBroker.builder(root).engine(TestBroker.ROCKSDB).start(); Admin admin = broker.admin()) {
            for (String name : List.of("rocksdb", "RocksDB", "__cluster")) {
                assertThatThrownBy(() -> create(admin, name)).as(name)
                        .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(InvalidTopicException.class);
            }
            create(admin, "rocksdb-events");
            assertThat(admin.listTopics().names().get(20, TimeUnit.SECONDS)).contains("rocksdb-events").doesNotContain("rocksdb");
        }
    }

    private static Set<String> listing(Path dir) throws Exception {
        try (Stream<Path> entries = Files.list(dir)) {
            return Set.copyOf(entries.map(p -> p.getFileName().toString()).toList());
        }
    }
}
