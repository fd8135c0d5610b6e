package io.kaas.cluster.files.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.cluster.ClusterStateException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileClusterStoreGroupConfigsTest {
    @TempDir
    Path dir;

    @Test
    void groupConfigsLiveInOneFilePerGroupAndTheLastRemovalDeletesIt() throws IOException {
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            store.updateGroupConfigs("Orders", Map.of("consumer.session.timeout.ms", "50000"));
            assertThat(dir.resolve("group-configs/%4Frders.json")).exists();
            assertThat(Files.readString(dir.resolve("group-configs/%4Frders.json")))
                    .contains("\"groupId\" : \"Orders\"").contains("\"consumer.session.timeout.ms\" : \"50000\"");
            store.updateGroupConfigs("Orders", Map.of());
            assertThat(dir.resolve("group-configs/%4Frders.json")).doesNotExist();
        }
    }

    @Test
    void refusesTheEmptyGroupIdWhichIsKafkasDefaultGroup() throws IOException {
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            assertThatThrownBy(() -> store.updateGroupConfigs("", Map.of("consumer.session.timeout.ms", "50000")))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("default group");
            assertThat(store.groupsWithConfigs()).isEmpty();
        }
    }

    @Test
    void reportsADamagedGroupConfigFileByName() throws IOException {
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            store.updateGroupConfigs("g", Map.of("consumer.session.timeout.ms", "50000"));
        }
        Files.writeString(dir.resolve("group-configs/g.json"), "{\"groupId\": \"g\", \"configs\": {\"consumer.session.timeout.ms\": 5}}");
        assertThatThrownBy(() -> FileClusterStore.open(dir, 1)).isInstanceOf(ClusterStateException.class)
                .hasMessageContaining("g.json").hasMessageContaining("consumer.session.timeout.ms").hasMessageContaining("not a string");

        Files.writeString(dir.resolve("group-configs/g.json"), "{\"groupId\": \"g\"}");
        assertThatThrownBy(() -> FileClusterStore.open(dir, 1)).isInstanceOf(ClusterStateException.class)
                .hasMessageContaining("g.json").hasMessageContaining("'configs'");

        Files.writeString(dir.resolve("group-configs/g.json"), "not json");
        assertThatThrownBy(() -> FileClusterStore.open(dir, 1)).isInstanceOf(ClusterStateException.class)
                .hasMessageContaining("Corrupt group-config file").hasMessageContaining("g.json");
    }

    @Test
    void refusesAGroupConfigFileWhoseIdDoesNotMatchItsNameOrIsEmpty() throws IOException {
        Files.createDirectories(dir.resolve("group-configs"));
        Files.writeString(dir.resolve("group-configs/a.json"), "{\"groupId\": \"b\", \"configs\": {}}");
        assertThatThrownBy(() -> FileClusterStore.open(dir, 1)).isInstanceOf(ClusterStateException.class)
                .hasMessageContaining("a.json").hasMessageContaining("'b'");

        Files.writeString(dir.resolve("group-configs/a.json"), "{\"groupId\": \"\", \"configs\": {}}");
        assertThatThrownBy(() -> FileClusterStore.open(dir, 1)).isInstanceOf(ClusterStateException.class)
                .hasMessageContaining("a.json").hasMessageContaining("empty");
    }

    @Test
    void ignoresLeftoverTempFilesAndOtherEntries() throws IOException {
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            store.updateGroupConfigs("g", Map.of("consumer.heartbeat.interval.ms", "6000"));
        }
        Files.writeString(dir.resolve("group-configs/h.json.tmp"), "{half");
        Files.writeString(dir.resolve("group-configs/README"), "not a group");
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            assertThat(store.groupsWithConfigs()).containsExactly("g");
            assertThat(store.groupConfigs("g")).isEqualTo(Map.of("consumer.heartbeat.interval.ms", "6000"));
        }
    }
}
