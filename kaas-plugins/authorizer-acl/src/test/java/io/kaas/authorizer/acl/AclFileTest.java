package io.kaas.authorizer.acl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.auth.AccessControlEntry;
import io.kaas.api.auth.AclBinding;
import io.kaas.api.auth.AclPermissionType;
import io.kaas.api.auth.AclStore;
import io.kaas.api.auth.Action;
import io.kaas.api.auth.PatternType;
import io.kaas.api.auth.ResourcePattern;
import io.kaas.api.auth.AuthorizableRequestContext;
import io.kaas.api.auth.AuthorizationResult;
import io.kaas.api.auth.AuthorizerContext;
import io.kaas.api.auth.KafkaPrincipal;
import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.plugin.PluginConfigException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AclFileTest {
    @TempDir
    Path dir;

    private static AclBinding acl(ResourceType type, String name, PatternType patternType, String principal,
                                  Operation op, AclPermissionType permission) {
        return new AclBinding(new ResourcePattern(type, name, patternType),
                new AccessControlEntry(KafkaPrincipal.parse(principal), "*", op, permission));
    }

    @Test
    void parsesEveryFormOfTheDocumentedSyntaxAsKafkaBindings() {
        assertThat(AclFile.parse("allow User:alice write topic:orders")).isEqualTo(acl(ResourceType.TOPIC, "orders",
                PatternType.LITERAL, "User:alice", Operation.WRITE, AclPermissionType.ALLOW));
        assertThat(AclFile.parse("deny * ALL transactional-id:tx-*")).isEqualTo(acl(ResourceType.TRANSACTIONAL_ID,
                "tx-", PatternType.PREFIXED, "User:*", Operation.ALL, AclPermissionType.DENY));
        assertThat(AclFile.parse("allow User:* DESCRIBE_CONFIGS topic:*")).isEqualTo(acl(ResourceType.TOPIC, "*",
                PatternType.LITERAL, "User:*", Operation.DESCRIBE_CONFIGS, AclPermissionType.ALLOW));
        assertThat(AclFile.parse("allow User:ops create cluster")).isEqualTo(acl(ResourceType.CLUSTER,
                Action.CLUSTER_NAME, PatternType.LITERAL, "User:ops", Operation.CREATE, AclPermissionType.ALLOW));
        assertThat(AclFile.parse("allow User:ops alter-configs cluster:kafka-cluster").entry().operation())
                .isEqualTo(Operation.ALTER_CONFIGS);
        assertThat(AclFile.parse("allow User:ops describe delegation-token:*").pattern().type())
                .isEqualTo(ResourceType.DELEGATION_TOKEN);
        assertThat(AclFile.parse("allow User:ops create_tokens user:alice").entry().operation())
                .isEqualTo(Operation.CREATE_TOKENS);
    }

    @Test
    void aWildcardOfAnotherPrincipalTypeIsRefusedAsKafkaKnowsOnlyUserStar() {
        assertThatThrownBy(() -> AclFile.parse("allow Group:* READ topic:t")).hasMessageContaining("only User:*");
    }

    @Test
    void theFileSeedsAnEmptyStoreOnceAndIsNotReadAgain() throws IOException {
        Path file = Files.writeString(dir.resolve("seed.rules"), "allow User:alice READ topic:t\n");
        AclStore store = AclStore.inMemory();
        var first = new AclAuthorizerProvider().open(new AuthorizerContext(PluginConfig.of(Map.of("file",
                file.toString())), 1, store));
        assertThat(store.acls()).containsExactly(acl(ResourceType.TOPIC, "t", PatternType.LITERAL, "User:alice",
                Operation.READ, AclPermissionType.ALLOW));
        assertThat(first.toString()).contains("1 seeded from");

        Files.writeString(file, "allow User:bob READ topic:t\nthis line would not parse\n");
        var second = new AclAuthorizerProvider().open(new AuthorizerContext(PluginConfig.of(Map.of("file",
                file.toString())), 1, store));
        assertThat(store.acls()).hasSize(1);
        assertThat(second.toString()).contains("not read: the store has ACLs already");
    }

    @Test
    void aBadLineFailsNamingTheFileTheLineAndTheFormat() throws IOException {
        Path file = dir.resolve("acl.rules");
        Files.writeString(file, "# rules\n\nallow User:alice READ topic:t\nallow User:alice READS topic:t\n");
        assertThatThrownBy(() -> AclFile.read(file))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(file.toAbsolutePath() + " line 4: unknown operation 'READS'")
                .hasMessageContaining("expected: allow|deny");
        assertThatThrownBy(() -> AclFile.parse("permit * READ topic:t")).hasMessageContaining("neither allow nor deny");
        assertThatThrownBy(() -> AclFile.parse("allow alice READ topic:t")).hasMessageContaining("<type>:<name>");
        assertThatThrownBy(() -> AclFile.parse("allow * READ table:t")).hasMessageContaining("unknown resource type");
        assertThatThrownBy(() -> AclFile.parse("allow * READ topic")).hasMessageContaining("has no name");
        assertThatThrownBy(() -> AclFile.parse("allow * READ")).hasMessageContaining("expected 4 fields");
    }

    @Test
    void aMissingFileOrABadSettingIsAClearError() throws IOException {
        AclAuthorizerProvider provider = new AclAuthorizerProvider();
        assertThat(provider.open(new AuthorizerContext(PluginConfig.empty(), 1, AclStore.inMemory())).managesAcls())
                .as("no file: the store's ACLs only").isTrue();
        assertThatThrownBy(() -> provider.open(new AuthorizerContext(
                PluginConfig.of(Map.of("file", dir.resolve("nope").toString())), 1, AclStore.inMemory())))
                .isInstanceOf(IOException.class).hasMessageContaining("does not exist");
        assertThatThrownBy(() -> provider.open(new AuthorizerContext(PluginConfig.of(Map.of("file", "x",
                AuthorizerContext.SUPER_USERS, "admin")), 1, AclStore.inMemory())))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("super.users");
    }

    @Test
    void superUsersAreSeparatedBySemicolonsAsInKafka() throws IOException {
        Path file = Files.writeString(dir.resolve("empty.rules"), "");
        var authorizer = new AclAuthorizerProvider().open(new AuthorizerContext(PluginConfig.of(Map.of("file",
                file.toString(), AuthorizerContext.SUPER_USERS, "User:a; User:b")), 1, AclStore.inMemory()));
        for (String user : List.of("a", "b")) {
            var request = new AuthorizableRequestContext(new KafkaPrincipal("User", user),
                    InetAddress.getLoopbackAddress(), "PLAINTEXT", null);
            assertThat(authorizer.authorize(request, List.of(Action.onCluster(Operation.ALTER))))
                    .containsExactly(AuthorizationResult.ALLOWED);
        }
    }

    @Test
    void moduleInfoAndServicesFileListTheSameProvider() throws IOException {
        Path classes = Path.of("target/classes");
        String service = io.kaas.api.auth.AuthorizerProvider.class.getName();
        ModuleDescriptor descriptor;
        try (InputStream in = Files.newInputStream(classes.resolve("module-info.class"))) {
            descriptor = ModuleDescriptor.read(in);
        }
        Set<String> provided = descriptor.provides().stream().filter(p -> p.service().equals(service))
                .flatMap(p -> p.providers().stream()).collect(Collectors.toSet());
        List<String> listed = Files.readAllLines(classes.resolve("META-INF/services/" + service)).stream()
                .map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        assertThat(provided).containsExactly(AclAuthorizerProvider.class.getName());
        assertThat(listed).containsExactlyInAnyOrderElementsOf(provided);
        assertThat(new AclAuthorizerProvider().name()).isEqualTo("acl");
    }
}
