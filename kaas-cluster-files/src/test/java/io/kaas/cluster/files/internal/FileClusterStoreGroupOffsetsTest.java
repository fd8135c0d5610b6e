package io.kaas.cluster.files.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.cluster.ClusterStateException;
import io.kaas.api.cluster.CommittedOffset;
import io.kaas.api.cluster.TopicPartitionRef;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileClusterStoreGroupOffsetsTest {
    @TempDir
    Path dir;

    private static final TopicPartitionRef ORDERS_0 = new TopicPartitionRef("orders", 0);
    private static final TopicPartitionRef ORDERS_1 = new TopicPartitionRef("orders", 1);
    private static final TopicPartitionRef PAYMENTS_0 = new TopicPartitionRef("payments", 0);

    private static CommittedOffset offset(long offset) {
        return new CommittedOffset(offset, 3, "meta-" + offset, 1_000 + offset, -1);
    }

    @Test
    void committedOffsetsSurviveReopenWithEveryField() throws IOException {
        CommittedOffset withExpiry = new CommittedOffset(42, -1, "", 1234, 99_999);
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            store.commitOffsets("g1", Map.of(ORDERS_0, offset(10), ORDERS_1, withExpiry));
            store.commitOffsets("g2", Map.of(PAYMENTS_0, offset(7)));
        }
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            assertThat(store.groupsWithOffsets()).containsExactlyInAnyOrder("g1", "g2");
            assertThat(store.committedOffsets("g1")).isEqualTo(Map.of(ORDERS_0, offset(10), ORDERS_1, withExpiry));
            assertThat(store.committedOffsets("g2")).isEqualTo(Map.of(PAYMENTS_0, offset(7)));
            assertThat(store.committedOffsets("missing")).isEmpty();
        }
    }

    @Test
    void aCommitReplacesItsPartitionsAndKeepsTheOthers() throws IOException {
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            store.commitOffsets("g", Map.of(ORDERS_0, offset(1), ORDERS_1, offset(2)));
            store.commitOffsets("g", Map.of(ORDERS_1, offset(5), PAYMENTS_0, offset(6)));
            assertThat(store.committedOffsets("g"))
                    .isEqualTo(Map.of(ORDERS_0, offset(1), ORDERS_1, offset(5), PAYMENTS_0, offset(6)));
        }
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            assertThat(store.committedOffsets("g"))
                    .isEqualTo(Map.of(ORDERS_0, offset(1), ORDERS_1, offset(5), PAYMENTS_0, offset(6)));
        }
    }

    @Test
    void writesOneWholeJsonFilePerGroupAndLeavesNoTemporaryFile() throws IOException {
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            for (int i = 0; i < 20; i++) {
                store.commitOffsets("g", Map.of(ORDERS_0, offset(i)));
            }
        }
        try (Stream<Path> files = Files.list(dir.resolve("groups"))) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("g.json");
        }
        String json = Files.readString(dir.resolve("groups/g.json"));
        assertThat(json).contains("\"groupId\" : \"g\"", "\"topic\" : \"orders\"", "\"offset\" : 19",
                "\"metadata\" : \"meta-19\"");
    }

    @Test
    void anInterruptedWriteLeavesThePreviousOffsetsInForce() throws IOException {
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            store.commitOffsets("g", Map.of(ORDERS_0, offset(5)));
        }
        // What a crash between writing the temporary file and the rename leaves behind.
        Files.writeString(dir.resolve("groups/0b6f1c1e-1111-2222-3333-444455556666.tmp"), "{\"groupId\" : \"g\", \"off");
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            assertThat(store.committedOffsets("g")).isEqualTo(Map.of(ORDERS_0, offset(5)));
        }
    }

    @Test
    void deleteGroupRemovesItsFileDurably() throws IOException {
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            store.commitOffsets("g1", Map.of(ORDERS_0, offset(1)));
            store.commitOffsets("g2", Map.of(ORDERS_0, offset(2)));
            store.deleteGroup("g1");
            store.deleteGroup("never-existed");
            assertThat(store.groupsWithOffsets()).containsExactly("g2");
            assertThat(store.committedOffsets("g1")).isEmpty();
        }
        assertThat(dir.resolve("groups/g1.json")).doesNotExist();
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            assertThat(store.groupsWithOffsets()).containsExactly("g2");
        }
    }

    @Test
    void deleteOffsetsKeepsTheRestAndRemovesTheGroupWithItsLastOffset() throws IOException {
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            store.commitOffsets("g", Map.of(ORDERS_0, offset(1), ORDERS_1, offset(2)));
            store.deleteOffsets("g", List.of(ORDERS_0, PAYMENTS_0));
            assertThat(store.committedOffsets("g")).isEqualTo(Map.of(ORDERS_1, offset(2)));
            store.deleteOffsets("g", List.of(ORDERS_1));
            assertThat(store.groupsWithOffsets()).isEmpty();
            store.deleteOffsets("unknown", List.of(ORDERS_1));
        }
        assertThat(dir.resolve("groups/g.json")).doesNotExist();
    }

    @Test
    void groupIdsWithAnyCharactersGetDistinctSafeFileNames() throws IOException {
        List<String> ids = List.of("Group", "group", "GROUP", ".", "..", "a/b", "a\\b", "../../etc/passwd",
                "%41", "A", "with space", "ünïcödé-组", "emoji-\uD83D\uDE00", "nul\u0000char", "x".repeat(300),
                "x".repeat(301), "y".repeat(10_000), "~tilde", "-leading-dash", ".hidden", "");
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            for (int i = 0; i < ids.size(); i++) {
                store.commitOffsets(ids.get(i), Map.of(ORDERS_0, offset(i)));
            }
        }
        Set<String> names = new HashSet<>();
        try (Stream<Path> files = Files.list(dir.resolve("groups"))) {
            files.forEach(f -> {
                String name = f.getFileName().toString();
                assertThat(name).matches("(([a-z0-9_~-]|%[0-9A-F]{2})+|%)\\.json").hasSizeLessThanOrEqualTo(GroupFileNames.MAX_ENCODED + 6);
                names.add(name.toLowerCase());
            });
        }
        assertThat(names).as("unique even case-insensitively").hasSize(ids.size());
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            assertThat(store.groupsWithOffsets()).containsExactlyInAnyOrderElementsOf(ids);
            for (int i = 0; i < ids.size(); i++) {
                assertThat(store.committedOffsets(ids.get(i))).isEqualTo(Map.of(ORDERS_0, offset(i)));
            }
        }
    }

    @Test
    void keepsTheEmptyGroupIdWhichKafkaAcceptsInOffsetCommit() throws IOException {
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            store.commitOffsets("", Map.of(ORDERS_0, offset(1)));
            store.commitOffsets("%", Map.of(ORDERS_0, offset(2)));
        }
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            assertThat(store.committedOffsets("")).isEqualTo(Map.of(ORDERS_0, offset(1)));
            assertThat(store.committedOffsets("%")).isEqualTo(Map.of(ORDERS_0, offset(2)));
            store.deleteGroup("");
            assertThat(store.groupsWithOffsets()).containsExactly("%");
        }
    }

    @Test
    void reportsADamagedGroupFileByName() throws IOException {
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            store.commitOffsets("g", Map.of(ORDERS_0, offset(1)));
        }
        Files.writeString(dir.resolve("groups/g.json"), "{\"groupId\": \"g\", \"offsets\": [{\"topic\": \"orders\"}]}");
        assertThatThrownBy(() -> FileClusterStore.open(dir, 1)).isInstanceOf(ClusterStateException.class)
                .hasMessageContaining("g.json").hasMessageContaining("partition");
    }

    @Test
    void refusesAGroupFileWhoseIdDoesNotMatchItsName() throws IOException {
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            store.commitOffsets("g", Map.of(ORDERS_0, offset(1)));
        }
        Files.move(dir.resolve("groups/g.json"), dir.resolve("groups/h.json"));
        assertThatThrownBy(() -> FileClusterStore.open(dir, 1)).isInstanceOf(ClusterStateException.class)
                .hasMessageContaining("h.json").hasMessageContaining("'g'");
    }
}
