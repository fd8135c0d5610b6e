package io.kaas.authorizer.acl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.auth.Action;
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

    @Test
    void parsesEveryFormOfTheDocumentedSyntax() {
        AclRule r = AclFile.parse("allow User:alice write topic:orders");
        assertThat(r.allow()).isTrue();
        assertThat(r.matchesPrincipal(new KafkaPrincipal("User", "alice"))).isTrue();
        assertThat(r.matchesPrincipal(new KafkaPrincipal("User", "bob"))).isFalse();
        assertThat(r.operation()).isEqualTo(Operation.WRITE);
        assertThat(r.matchesResource("orders")).isTrue();
        assertThat(r.matchesResource("orders2")).isFalse();

        AclRule prefix = AclFile.parse("deny * ALL transactional-id:tx-*");
        assertThat(prefix.type()).isEqualTo(ResourceType.TRANSACTIONAL_ID);
        assertThat(prefix.matchesResource("tx-1")).isTrue();
        assertThat(prefix.matchesPrincipal(KafkaPrincipal.ANONYMOUS)).isTrue();

        AclRule users = AclFile.parse("allow User:* DESCRIBE_CONFIGS topic:*");
        assertThat(users.matchesPrincipal(new KafkaPrincipal("Group", "x"))).isFalse();
        assertThat(users.matchesPrincipal(new KafkaPrincipal("User", "x"))).isTrue();
        assertThat(users.matchesResource("anything")).isTrue();

        assertThat(AclFile.parse("allow User:ops create cluster").matchesResource(Action.CLUSTER_NAME)).isTrue();
        assertThat(AclFile.parse("allow User:ops alter-configs cluster:kafka-cluster").operation())
                .isEqualTo(Operation.ALTER_CONFIGS);
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
    void aMissingFileOrSettingIsAClearError() {
        AclAuthorizerProvider provider = new AclAuthorizerProvider();
        assertThatThrownBy(() -> provider.open(new AuthorizerContext(PluginConfig.empty(), 1)))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("authorizer.acl.file");
        assertThatThrownBy(() -> provider.open(new AuthorizerContext(
                PluginConfig.of(Map.of("file", dir.resolve("nope").toString())), 1)))
                .isInstanceOf(IOException.class).hasMessageContaining("does not exist");
        assertThatThrownBy(() -> provider.open(new AuthorizerContext(PluginConfig.of(Map.of("file", "x",
                AuthorizerContext.SUPER_USERS, "admin")), 1)))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("super.users");
    }

    @Test
    void superUsersAreSeparatedBySemicolonsAsInKafka() throws IOException {
        Path file = Files.writeString(dir.resolve("empty.rules"), "");
        var authorizer = new AclAuthorizerProvider().open(new AuthorizerContext(PluginConfig.of(Map.of("file",
                file.toString(), AuthorizerContext.SUPER_USERS, "User:a; User:b")), 1));
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
