package io.kaas.authorizer.acl;

import io.kaas.api.auth.AuthorizerContext;
import io.kaas.api.auth.KafkaPrincipal;
import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.plugin.PluginConfigException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The acl authorizer's settings.
 *
 * @param file                      {@code authorizer.acl.file} (key {@code file} here): rules that seed an empty
 *                                  ACL store; null when not set
 * @param superUsers                {@code super.users}: principals separated by {@code ;}, as in Kafka
 * @param allowEveryoneIfNoAclFound {@code allow.everyone.if.no.acl.found}, default false
 */
record AclConfig(Path file, Set<KafkaPrincipal> superUsers, boolean allowEveryoneIfNoAclFound) {
    static final String FILE = "file";
    /** Every key under {@code authorizer.acl.} that {@link #from} reads (super users and the no-ACL default are broker keys). */
    static final Set<String> KEYS = Set.of(FILE);

    static AclConfig from(PluginConfig config) {
        Path file = config.get(FILE).filter(s -> !s.isBlank()).map(Path::of).orElse(null);
        Set<KafkaPrincipal> superUsers = new LinkedHashSet<>();
        for (String s : config.getString(AuthorizerContext.SUPER_USERS, "").split(";")) {
            if (s.isBlank()) {
                continue;
            }
            try {
                superUsers.add(KafkaPrincipal.parse(s));
            } catch (IllegalArgumentException e) {
                throw new PluginConfigException(AuthorizerContext.SUPER_USERS, e.getMessage());
            }
        }
        boolean allowIfNoAcl = config.getBoolean(AuthorizerContext.ALLOW_EVERYONE_IF_NO_ACL_FOUND, false);
        return new AclConfig(file, Set.copyOf(superUsers), allowIfNoAcl);
    }
}
