package io.kaas.cluster.files.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.cluster.ClusterStateException;
import io.kaas.api.cluster.TopicExistsException;
import io.kaas.api.cluster.TopicRecord;
import io.kaas.api.cluster.UnknownTopicException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileClusterStoreTest {
    @TempDir
    Path dir;

    private static TopicRecord topic(String name, int partitions) {
        return new TopicRecord(name, UUID.randomUUID(), partitions, Map.of());
    }

    @Test
    void createsListsAndFindsTopicsByNameAndById() throws IOException {
        TopicRecord orders = new TopicRecord("orders", UUID.randomUUID(), 3, Map.of("cleanup.policy", "compact"));
        TopicRecord payments = topic("payments.v2_eu-west", 1);
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            store.createTopic(orders);
            store.createTopic(payments);

            assertThat(store.topics()).containsExactlyInAnyOrder(orders, payments);
            assertThat(store.topic("orders")).contains(orders);
            assertThat(store.topic(payments.topicId())).contains(payments);
            assertThat(store.topic("missing")).isEmpty();
            assertThat(store.topic(UUID.randomUUID())).isEmpty();
        }
    }

    @Test
    void topicsIsASnapshot() throws IOException {
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            store.createTopic(topic("a", 1));
            var snapshot = store.topics();
            store.createTopic(topic("b", 1));
            assertThat(snapshot).hasSize(1);
        }
    }

    @Test
    void writesOneJsonFilePerTopic() throws IOException {
        TopicRecord orders = new TopicRecord("orders", UUID.randomUUID(), 3, Map.of("retention.ms", "1000"));
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            store.createTopic(orders);
        }
        String json = Files.readString(dir.resolve("topics/orders.json"));
        assertThat(json).contains("\"name\" : \"orders\"", "\"partitions\" : 3", "\"retention.ms\" : \"1000\"",
                "\"topicId\" : \"" + KafkaUuids.toText(orders.topicId()) + "\"");
    }

    @Test
    void deletesATopic() throws IOException {
        TopicRecord orders = topic("orders", 1);
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            store.createTopic(orders);
            store.deleteTopic("orders");

            assertThat(store.topic("orders")).isEmpty();
            assertThat(store.topic(orders.topicId())).isEmpty();
            assertThat(dir.resolve("topics/orders.json")).doesNotExist();
            store.createTopic(topic("orders", 2)); // the name is free again
        }
    }

    @Test
    void replacesConfigsAndRaisesPartitionCount() throws IOException {
        TopicRecord orders = new TopicRecord("orders", UUID.randomUUID(), 1, Map.of("a", "1"));
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            store.createTopic(orders);

            TopicRecord configured = store.updateTopicConfigs("orders", Map.of("b", "2"));
            TopicRecord grown = store.updatePartitionCount("orders", 4);

            assertThat(configured.configs()).isEqualTo(Map.of("b", "2"));
            assertThat(grown).isEqualTo(new TopicRecord("orders", orders.topicId(), 4, Map.of("b", "2")));
            assertThat(store.topic("orders")).contains(grown);
            assertThat(store.topic(orders.topicId())).contains(grown);
            assertThat(store.updatePartitionCount("orders", 4)).isEqualTo(grown);
        }
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            assertThat(store.topic("orders")).contains(new TopicRecord("orders", orders.topicId(), 4, Map.of("b", "2")));
        }
    }

    @Test
    void refusesToShrinkATopic() throws IOException {
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            store.createTopic(topic("orders", 3));
            assertThatThrownBy(() -> store.updatePartitionCount("orders", 2))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("has 3 partitions");
            assertThat(store.topic("orders").orElseThrow().partitions()).isEqualTo(3);
        }
    }

    @Test
    void refusesADuplicateName() throws IOException {
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            TopicRecord first = topic("orders", 1);
            store.createTopic(first);
            assertThatThrownBy(() -> store.createTopic(topic("orders", 5)))
                    .isInstanceOf(TopicExistsException.class)
                    .hasMessageContaining("orders");
            assertThat(store.topic("orders")).contains(first);
        }
    }

    @Test
    void refusesADuplicateTopicId() throws IOException {
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            TopicRecord first = topic("orders", 1);
            store.createTopic(first);
            assertThatThrownBy(() -> store.createTopic(new TopicRecord("other", first.topicId(), 1, Map.of())))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThat(store.topic("other")).isEmpty();
        }
    }

    @Test
    void unknownTopicsAreReported() throws IOException {
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            assertThatThrownBy(() -> store.deleteTopic("nope")).isInstanceOf(UnknownTopicException.class);
            assertThatThrownBy(() -> store.updateTopicConfigs("nope", Map.of())).isInstanceOf(UnknownTopicException.class);
            assertThatThrownBy(() -> store.updatePartitionCount("nope", 2)).isInstanceOf(UnknownTopicException.class);
        }
    }

    @Test
    void refusesIllegalTopicNames() throws IOException {
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            for (String name : new String[] {"", ".", "..", "a/b", "../escape", "a b", "x".repeat(250)}) {
                assertThatThrownBy(() -> store.createTopic(topic(name, 1)))
                        .as(name).isInstanceOf(IllegalArgumentException.class);
            }
            store.createTopic(topic("x".repeat(249), 1));
            assertThat(store.topics()).hasSize(1);
        }
    }

    @Test
    void keepsTopicsAcrossReopen() throws IOException {
        TopicRecord orders = new TopicRecord("orders", UUID.randomUUID(), 3, Map.of("cleanup.policy", "compact"));
        TopicRecord gone = topic("gone", 1);
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            store.createTopic(orders);
            store.createTopic(gone);
            store.deleteTopic("gone");
        }
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            assertThat(store.topics()).containsExactly(orders);
            assertThat(store.topic(orders.topicId())).contains(orders);
        }
    }

    @Test
    void clusterIdIsCreatedOnceAndStableAcrossReopen() throws IOException {
        String first;
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            first = store.clusterId();
        }
        assertThat(first).hasSize(22).matches("[A-Za-z0-9_][A-Za-z0-9_-]{21}");
        assertThat(KafkaUuids.toText(KafkaUuids.fromText(first))).isEqualTo(first);
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            assertThat(store.clusterId()).isEqualTo(first);
        }
        assertThat(Files.readString(dir.resolve("cluster.json"))).contains(first);
    }

    @Test
    void producerIdBlocksNeverOverlapAcrossReopen() throws IOException {
        long a;
        long b;
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            a = store.allocateProducerIdBlock(1000);
            b = store.allocateProducerIdBlock(10);
            // Persisted before the block was returned.
            assertThat(Files.readString(dir.resolve("producer-ids.json"))).contains(String.valueOf(b + 10));
        }
        long c;
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            c = store.allocateProducerIdBlock(5);
        }
        assertThat(a).isZero();
        assertThat(b).isEqualTo(1000);
        assertThat(c).isEqualTo(1010);
        assertThatThrownBy(() -> {
            try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
                store.allocateProducerIdBlock(0);
            }
        }).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void corruptTopicFileFailsOpenNamingTheFile() throws IOException {
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            store.createTopic(topic("orders", 1));
        }
        Path file = dir.resolve("topics/orders.json");
        Files.writeString(file, "{\"name\": \"orders\", \"topicId\": ", StandardCharsets.UTF_8);

        assertThatThrownBy(() -> FileClusterStore.open(dir, 1))
                .isInstanceOf(ClusterStateException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("Corrupt topic file");
    }

    @Test
    void topicFileWithAMissingFieldFailsOpenSayingWhichField() throws IOException {
        Path file = dir.resolve("topics/orders.json");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "{\"name\": \"orders\", \"topicId\": \"" + KafkaUuids.toText(UUID.randomUUID())
                + "\", \"configs\": {}}");

        assertThatThrownBy(() -> FileClusterStore.open(dir, 1))
                .isInstanceOf(ClusterStateException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("'partitions'");
    }

    @Test
    void damagedClusterIdFileFailsOpenNamingTheFile() throws IOException {
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            store.clusterId();
        }
        Path file = dir.resolve("cluster.json");
        for (String content : new String[] {"", "[]", "{\"clusterId\": 42}", "{\"clusterId\": \"tooShort\"}",
                "{\"clusterId\": \"" + KafkaUuids.toText(UUID.randomUUID())}) {
            Files.writeString(file, content);
            assertThatThrownBy(() -> FileClusterStore.open(dir, 1))
                    .as(content)
                    .isInstanceOf(ClusterStateException.class)
                    .hasMessageContaining("Cannot read the cluster id from " + file);
        }
    }

    @Test
    void damagedProducerIdFileFailsOpenNamingTheFile() throws IOException {
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            store.allocateProducerIdBlock(10);
        }
        Path file = dir.resolve("producer-ids.json");
        for (String content : new String[] {"{\"nextBlockStart\": -5}", "{\"nextBlockStart\": \"10\"}",
                "{\"nextBlockStart\": 99999999999999999999}", "{\"nextBlockStart\": 10", "[10]"}) {
            Files.writeString(file, content);
            assertThatThrownBy(() -> FileClusterStore.open(dir, 1))
                    .as(content)
                    .isInstanceOf(ClusterStateException.class)
                    .hasMessageContaining("Cannot read the next producer id from " + file);
        }
    }

    @Test
    void topicFileHoldingAnotherNameFailsOpen() throws IOException {
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            store.createTopic(topic("orders", 1));
        }
        Files.move(dir.resolve("topics/orders.json"), dir.resolve("topics/renamed.json"));

        assertThatThrownBy(() -> FileClusterStore.open(dir, 1))
                .isInstanceOf(ClusterStateException.class)
                .hasMessageContaining("renamed.json")
                .hasMessageContaining("'orders'");
    }

    @Test
    void leftoverTempFilesAreIgnored() throws IOException {
        TopicRecord orders = topic("orders", 1);
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            store.createTopic(orders);
        }
        Files.writeString(dir.resolve("topics/" + UUID.randomUUID() + ".tmp"), "{\"half");
        Files.writeString(dir.resolve(UUID.randomUUID() + ".tmp"), "");

        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            assertThat(store.topics()).containsExactly(orders);
        }
    }

    @Test
    void aClosedStoreRefusesWrites() throws IOException {
        FileClusterStore store = FileClusterStore.open(dir, 1);
        store.close();
        store.close();
        assertThatThrownBy(() -> store.createTopic(topic("orders", 1))).isInstanceOf(IllegalStateException.class);
    }
}
