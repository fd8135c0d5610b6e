package io.kaas.cluster.files.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.auth.AccessControlEntry;
import io.kaas.api.auth.AclBinding;
import io.kaas.api.auth.AclPermissionType;
import io.kaas.api.auth.KafkaPrincipal;
import io.kaas.api.auth.Operation;
import io.kaas.api.auth.PatternType;
import io.kaas.api.auth.ResourcePattern;
import io.kaas.api.auth.ResourceType;
import io.kaas.api.cluster.ClusterStateException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileClusterStoreAclsTest {
    private static final AclBinding WRITE = new AclBinding(new ResourcePattern(ResourceType.TOPIC, "orders",
            PatternType.PREFIXED), new AccessControlEntry(KafkaPrincipal.parse("User:alice"), "*", Operation.WRITE,
            AclPermissionType.ALLOW));

    @TempDir
    Path dir;

    @Test
    void aclsLiveInOneFileWithKafkasNames() throws IOException {
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            assertThat(dir.resolve(AclFiles.FILE)).doesNotExist();
            store.addAcls(List.of(WRITE));
            assertThat(Files.readString(dir.resolve(AclFiles.FILE))).contains("\"resourceType\" : \"TOPIC\"")
                    .contains("\"patternType\" : \"PREFIXED\"").contains("\"principal\" : \"User:alice\"")
                    .contains("\"operation\" : \"WRITE\"").contains("\"permission\" : \"ALLOW\"");
            store.removeAcls(List.of(WRITE));
            assertThat(AclFiles.read(Files.readAllBytes(dir.resolve(AclFiles.FILE)))).isEmpty();
        }
    }

    @Test
    void refusesADamagedAclFileNamingItAndTheEntry() throws IOException {
        FileClusterStore.open(dir, 1).close();
        Path file = dir.resolve(AclFiles.FILE);
        Files.writeString(file, "{\"acls\": [{\"resourceType\": \"TOPIC\", \"name\": \"t\", \"patternType\": \"MATCH\","
                + " \"principal\": \"User:a\", \"host\": \"*\", \"operation\": \"READ\", \"permission\": \"ALLOW\"}]}");
        assertThatThrownBy(() -> FileClusterStore.open(dir, 1)).isInstanceOf(ClusterStateException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("acls[0]")
                .hasMessageContaining("LITERAL or PREFIXED");

        Files.writeString(file, "{\"acls\": [{\"resourceType\": \"TABLE\"}]}");
        assertThatThrownBy(() -> FileClusterStore.open(dir, 1)).isInstanceOf(ClusterStateException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("TABLE");

        Files.writeString(file, "{\"acls\": [{\"resourceType\": \"TOPIC\", \"name\": \"t\"}]}");
        assertThatThrownBy(() -> FileClusterStore.open(dir, 1)).isInstanceOf(ClusterStateException.class)
                .hasMessageContaining("field 'patternType' is missing");

        Files.writeString(file, "{\"acls\": [");
        assertThatThrownBy(() -> FileClusterStore.open(dir, 1)).isInstanceOf(ClusterStateException.class)
                .hasMessageContaining(file.toString());

        Files.writeString(file, "{}");
        assertThatThrownBy(() -> FileClusterStore.open(dir, 1)).isInstanceOf(ClusterStateException.class)
                .hasMessageContaining("field 'acls' is missing");
    }
}
