package io.kaas.cluster.files.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.cluster.ClusterStateException;
import io.kaas.api.cluster.ScramCredentialRecord;
import io.kaas.api.cluster.ScramCredentialRef;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileClusterStoreScramTest {
    @TempDir
    Path dir;

    private static ScramCredentialRecord alice() {
        return new ScramCredentialRecord(new ScramCredentialRef("alice", "SCRAM-SHA-256"), new byte[] {1, 2, 3},
                new byte[] {4, 5, 6}, new byte[] {7, 8, 9}, 4096);
    }

    @Test
    void credentialsLiveInOneFileAndTheLastDeletionRemovesIt() throws IOException {
        Path file = dir.resolve("scram-credentials.json");
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            store.alterScramCredentials(List.of(alice()), List.of());
            assertThat(Files.readString(file)).contains("\"user\" : \"alice\"").contains("\"mechanism\" : \"SCRAM-SHA-256\"")
                    .contains("\"salt\" : \"AQID\"").contains("\"storedKey\" : \"BAUG\"").contains("\"serverKey\" : \"BwgJ\"")
                    .contains("\"iterations\" : 4096");
            store.alterScramCredentials(List.of(), List.of(alice().ref()));
            assertThat(file).doesNotExist();
        }
    }

    @Test
    void aChangeAnotherStoreMadeSinceOpenIsKept() throws IOException {
        try (FileClusterStore first = FileClusterStore.open(dir, 1)) {
            // Another broker sharing the directory wrote bob's credential after this store was opened.
            Files.writeString(dir.resolve("scram-credentials.json"), new String(ScramCredentialFiles.write(
                    java.util.Map.of("bob", java.util.Map.of("SCRAM-SHA-512", new ScramCredentialRecord(
                            new ScramCredentialRef("bob", "SCRAM-SHA-512"), new byte[] {1}, new byte[] {2}, new byte[] {3}, 8192))))));
            first.alterScramCredentials(List.of(alice()), List.of());
            assertThat(first.scramCredentials()).extracting(ScramCredentialRecord::user).containsExactlyInAnyOrder("alice", "bob");
        }
    }

    @Test
    void reportsADamagedCredentialFileByName() throws IOException {
        Path file = dir.resolve("scram-credentials.json");
        for (String content : List.of(
                "not json",
                "{}",
                "{\"credentials\": {}}",
                "{\"credentials\": [1]}",
                "{\"credentials\": [{\"user\": \"a\", \"mechanism\": \"SCRAM-SHA-256\", \"salt\": \"AQ==\", \"storedKey\": \"AQ==\", \"serverKey\": \"AQ==\"}]}",
                "{\"credentials\": [{\"user\": \"a\", \"mechanism\": \"SCRAM-SHA-256\", \"salt\": \"*\", \"storedKey\": \"AQ==\", \"serverKey\": \"AQ==\", \"iterations\": 4096}]}",
                "{\"credentials\": [{\"user\": \"a\", \"mechanism\": \"SCRAM-SHA-256\", \"salt\": \"\", \"storedKey\": \"AQ==\", \"serverKey\": \"AQ==\", \"iterations\": 4096}]}",
                "{\"credentials\": [{\"user\": \"\", \"mechanism\": \"SCRAM-SHA-256\", \"salt\": \"AQ==\", \"storedKey\": \"AQ==\", \"serverKey\": \"AQ==\", \"iterations\": 4096}]}",
                "{\"credentials\": [{\"user\": \"a\", \"mechanism\": \"SCRAM-SHA-256\", \"salt\": \"AQ==\", \"storedKey\": \"AQ==\", \"serverKey\": \"AQ==\", \"iterations\": 99999999999}]}",
                "{\"credentials\": [{\"user\": \"a\", \"mechanism\": \"SCRAM-SHA-256\", \"salt\": \"AQ==\", \"storedKey\": \"AQ==\", \"serverKey\": \"AQ==\", \"iterations\": 4096},"
                        + " {\"user\": \"a\", \"mechanism\": \"SCRAM-SHA-256\", \"salt\": \"AQ==\", \"storedKey\": \"AQ==\", \"serverKey\": \"AQ==\", \"iterations\": 4096}]}")) {
            Files.writeString(file, content);
            assertThatThrownBy(() -> FileClusterStore.open(dir, 1)).as(content).isInstanceOf(ClusterStateException.class)
                    .hasMessageContaining("Corrupt SCRAM credential file").hasMessageContaining(file.toString());
        }
    }

    @Test
    void unknownFieldsAreIgnored() throws IOException {
        Files.writeString(dir.resolve("scram-credentials.json"), "{\"version\": {\"x\": [1]}, \"credentials\": [{\"user\": \"a\","
                + " \"mechanism\": \"SCRAM-SHA-256\", \"salt\": \"AQ==\", \"storedKey\": \"Ag==\", \"serverKey\": \"Aw==\","
                + " \"iterations\": 4096, \"note\": [\"x\"]}]}");
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            assertThat(store.scramCredentials("a")).containsExactly(new ScramCredentialRecord(
                    new ScramCredentialRef("a", "SCRAM-SHA-256"), new byte[] {1}, new byte[] {2}, new byte[] {3}, 4096));
        }
    }
}
