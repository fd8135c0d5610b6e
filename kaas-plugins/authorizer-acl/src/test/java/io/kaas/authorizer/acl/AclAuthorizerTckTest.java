package io.kaas.authorizer.acl;

import io.kaas.api.auth.AuthorizerContext;
import io.kaas.api.auth.AuthorizerProvider;
import io.kaas.api.auth.KafkaPrincipal;
import io.kaas.api.plugin.PluginConfig;
import io.kaas.plugin.tck.AuthorizerTck;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;

/** The acl authorizer passes the TCK: each policy is written as an ACL file. */
class AclAuthorizerTckTest extends AuthorizerTck {
    @Override
    protected AuthorizerProvider provider() {
        return new AclAuthorizerProvider();
    }

    @Override
    protected PluginConfig configFor(Policy policy, Path dir) throws IOException {
        Path file = dir.resolve("acl.rules");
        String text = policy.rules().stream().map(AclAuthorizerTckTest::line).collect(Collectors.joining("\n"));
        Files.writeString(file, "# written by the TCK\n" + text + "\n", StandardCharsets.UTF_8);
        String superUsers = policy.superUsers().stream().map(KafkaPrincipal::toString).collect(Collectors.joining(";"));
        return PluginConfig.of(Map.of(AclConfig.FILE, file.toString(),
                AuthorizerContext.SUPER_USERS, superUsers,
                AuthorizerContext.ALLOW_EVERYONE_IF_NO_ACL_FOUND, Boolean.toString(policy.allowEveryoneIfNoAclFound())));
    }

    private static String line(Rule r) {
        String name = switch (r.match()) {
            case WILDCARD -> "*";
            case PREFIXED -> r.name() + "*";
            case LITERAL -> r.name();
        };
        return (r.allow() ? "allow" : "deny") + " " + (r.principal() == null ? "*" : r.principal().toString()) + " "
                + r.operation() + " " + r.type().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-') + ":" + name;
    }
}
