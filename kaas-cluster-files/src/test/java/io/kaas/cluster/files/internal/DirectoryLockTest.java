package io.kaas.cluster.files.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.cluster.ClusterStateException;
import io.kaas.api.cluster.TopicRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The exclusive hold of a data directory by one files store, within one JVM. */
@Timeout(60)
class DirectoryLockTest {
    @TempDir
    Path dataDir;

    private Path clusterDir() {
        return dataDir.resolve("__cluster");
    }

    private Path lockFile() {
        return clusterDir().resolve(DirectoryLock.FILE);
    }

    private String inUseBy(int nodeId) throws IOException {
        return "data directory " + dataDir.toRealPath() + " is in use by broker " + nodeId + " (pid "
                + ProcessHandle.current().pid() + " on host " + LockHolder.thisProcess(nodeId).host()
                + ") with the files cluster store; a second broker needs cluster.store=zookeeper";
    }

    @Test
    void aSecondStoreInThisJvmIsRefusedAtOnceWithOneLineNamingTheHolder() throws Exception {
        try (FileClusterStore first = FileClusterStore.open(clusterDir(), 1)) {
            // Neither blocks nor succeeds, whatever node id it claims.
            for (int nodeId : new int[] {2, 1}) {
                CompletableFuture<FileClusterStore> second = CompletableFuture.supplyAsync(() -> {
                    try {
                        return FileClusterStore.open(clusterDir(), nodeId);
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                });
                assertThatThrownBy(() -> second.get(10, TimeUnit.SECONDS))
                        .cause().isInstanceOf(ClusterStateException.class).hasMessage(inUseBy(1))
                        .hasMessageNotContaining("\n");
            }
            first.createTopic(new TopicRecord("orders", UUID.randomUUID(), 1, Map.of()));
            assertThat(LockHolder.fromJson(Files.readAllBytes(lockFile())).nodeId()).isEqualTo(1);
        }
        try (FileClusterStore next = FileClusterStore.open(clusterDir(), 2)) {
            assertThat(next.topic("orders")).isPresent();
        }
    }

    @Test
    void theLockFileNamesTheHolderWhileOpenAndNobodyAfterClose() throws IOException {
        try (FileClusterStore store = FileClusterStore.open(clusterDir(), 7)) {
            LockHolder holder = LockHolder.fromJson(Files.readAllBytes(lockFile()));
            assertThat(holder.nodeId()).isEqualTo(7);
            assertThat(holder.pid()).isEqualTo(ProcessHandle.current().pid());
            assertThat(holder.host()).isNotBlank();
        }
        assertThat(lockFile()).isEmptyFile();
    }

    @Test
    void aLockFileWithGarbageFromACrashedHolderIsTakenOverAndRewritten() throws IOException {
        Files.createDirectories(clusterDir());
        for (String garbage : new String[] {"\u0000\u0000{\"nodeId\": 3, \"ho", "not json at all", "[]",
                "{\"nodeId\": \"three\", \"host\": \"h\", \"pid\": 1, \"since\": \"yesterday\"}"}) {
            Files.writeString(lockFile(), garbage, StandardCharsets.UTF_8);
            try (FileClusterStore store = FileClusterStore.open(clusterDir(), 5)) {
                assertThat(LockHolder.fromJson(Files.readAllBytes(lockFile())).nodeId()).as(garbage).isEqualTo(5);
                assertThatThrownBy(() -> FileClusterStore.open(clusterDir(), 6)).hasMessage(inUseBy(5));
            }
        }
    }

    @Test
    void theRecordOfAHolderThatDidNotCloseIsOverwritten() throws IOException {
        Files.createDirectories(clusterDir());
        Files.write(lockFile(), new LockHolder(9, "gone-host", 4242, java.time.Instant.EPOCH).toJson());
        try (FileClusterStore store = FileClusterStore.open(clusterDir(), 1)) {
            LockHolder holder = LockHolder.fromJson(Files.readAllBytes(lockFile()));
            assertThat(holder.nodeId()).isEqualTo(1);
            assertThat(holder.pid()).isEqualTo(ProcessHandle.current().pid());
        }
    }

    @Test
    void aStoreThatFailsToOpenReleasesTheDirectory() throws IOException {
        Files.createDirectories(clusterDir());
        Path clusterJson = clusterDir().resolve("cluster.json");
        Files.writeString(clusterJson, "{\"clusterId\": 42}");
        assertThatThrownBy(() -> FileClusterStore.open(clusterDir(), 1))
                .isInstanceOf(ClusterStateException.class).hasMessageContaining(clusterJson.toString());
        Files.delete(clusterJson);
        try (FileClusterStore store = FileClusterStore.open(clusterDir(), 1)) {
            assertThat(store.clusterId()).hasSize(22);
        }
    }
}
