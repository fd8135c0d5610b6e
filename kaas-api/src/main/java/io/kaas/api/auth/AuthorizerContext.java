package io.kaas.api.auth;

import io.kaas.api.plugin.PluginConfig;
import java.util.Objects;

/**
 * What the host hands an authorizer when it opens it.
 *
 * @param config   the authorizer's settings: its own keys ({@code authorizer.<name>.*}, prefix removed),
 *                 plus Kafka's authorizer keys {@code super.users} and {@code allow.everyone.if.no.acl.found}
 *                 under their own names when the broker config sets them, as Kafka hands them to its
 *                 authorizers (an own key of the same name wins)
 * @param brokerId this broker's {@code node.id}
 * @param acls     the durable ACL bindings of the cluster (the broker's are kept by the cluster-state store);
 *                 an authorizer that manages ACLs ({@link Authorizer#managesAcls()}) loads them at open and
 *                 writes every change through it
 */
public record AuthorizerContext(PluginConfig config, int brokerId, AclStore acls) {
    /** Kafka's key: principals ({@code User:alice;User:bob}) allowed everything. */
    public static final String SUPER_USERS = "super.users";
    /** Kafka's key: allow an action on a resource that no rule matches (default false). */
    public static final String ALLOW_EVERYONE_IF_NO_ACL_FOUND = "allow.everyone.if.no.acl.found";

    public AuthorizerContext {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(acls, "acls");
    }
}
