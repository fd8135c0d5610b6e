package io.kaas.authorizer.acl;

import io.kaas.api.auth.AccessControlEntry;
import io.kaas.api.auth.AclBinding;
import io.kaas.api.auth.AclPermissionType;
import io.kaas.api.auth.Action;
import io.kaas.api.auth.KafkaPrincipal;
import io.kaas.api.auth.Operation;
import io.kaas.api.auth.PatternType;
import io.kaas.api.auth.ResourcePattern;
import io.kaas.api.auth.ResourceType;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An immutable snapshot of the ACLs, indexed by resource type and then by literal name and by prefix, so a
 * decision looks up the literal name, the literal {@code *} and each prefix of the name, never every ACL.
 * Decides with Kafka's {@code StandardAuthorizerData} semantics: an ACL applies when its pattern matches the
 * resource, its principal is the request's or {@code User:*}, its host is {@code *} or the client's address,
 * and its operation is the action's or ALL (an ALLOW of READ, WRITE, DELETE or ALTER also DESCRIBE, of
 * ALTER_CONFIGS also DESCRIBE_CONFIGS); a DENY that applies wins; with none that applies, an action on a
 * resource no ACL names is allowed iff {@code allow.everyone.if.no.acl.found}.
 */
final class AclIndex {
    static final AclIndex EMPTY = new AclIndex(Set.of());

    private final Set<AclBinding> all;
    private final Map<ResourceType, ByType> byType = new EnumMap<>(ResourceType.class);

    private static final class ByType {
        final Map<String, List<AclBinding>> literal = new HashMap<>();
        final Map<String, List<AclBinding>> prefixed = new HashMap<>();
        final List<AclBinding> every = new ArrayList<>();
        int longestPrefix;
    }

    AclIndex(Collection<AclBinding> bindings) {
        this.all = Set.copyOf(new LinkedHashSet<>(bindings));
        for (AclBinding b : all) {
            ByType t = byType.computeIfAbsent(b.pattern().type(), k -> new ByType());
            t.every.add(b);
            if (b.pattern().patternType() == PatternType.PREFIXED) {
                t.longestPrefix = Math.max(t.longestPrefix, b.pattern().name().length());
            }
            (b.pattern().patternType() == PatternType.PREFIXED ? t.prefixed : t.literal)
                    .computeIfAbsent(b.pattern().name(), k -> new ArrayList<>()).add(b);
        }
    }

    Set<AclBinding> all() {
        return all;
    }

    int size() {
        return all.size();
    }

    /** The ACLs of {@code type}, for {@code authorizeByResourceType}. */
    List<AclBinding> ofType(ResourceType type) {
        ByType t = byType.get(type);
        return t == null ? List.of() : t.every;
    }

    /** Whether {@code action} is allowed for {@code principal} at {@code address}. */
    boolean allows(KafkaPrincipal principal, InetAddress address, Action action, boolean allowIfNoAcl) {
        ByType t = byType.get(action.resourceType());
        if (t == null) {
            return allowIfNoAcl;
        }
        String host = address.getHostAddress();
        String name = action.resourceName();
        Decision d = new Decision();
        if (d.scan(t.literal.get(name), principal, host, action.operation())
                || d.scan(t.literal.get(ResourcePattern.WILDCARD), principal, host, action.operation())) {
            return false;
        }
        if (!t.prefixed.isEmpty()) {
            for (int end = Math.min(name.length(), t.longestPrefix); end >= 1; end--) {
                if (d.scan(t.prefixed.get(name.substring(0, end)), principal, host, action.operation())) {
                    return false;
                }
            }
        }
        return d.allowed || (!d.resourceHasAcls && allowIfNoAcl);
    }

    private static final class Decision {
        boolean resourceHasAcls;
        boolean allowed;

        /** True when a DENY applies. */
        boolean scan(List<AclBinding> bindings, KafkaPrincipal principal, String host, Operation op) {
            if (bindings == null) {
                return false;
            }
            for (AclBinding b : bindings) {
                resourceHasAcls = true;
                AccessControlEntry e = b.entry();
                if (!appliesTo(e, principal, host)) {
                    continue;
                }
                if (e.permission() == AclPermissionType.DENY) {
                    if (e.operation() == op || e.operation() == Operation.ALL) {
                        return true;
                    }
                } else if (e.operation().implied().contains(op)) {
                    allowed = true;
                }
            }
            return false;
        }
    }

    /** Whether the entry's principal and host are the request's (or wildcards), as Kafka matches them. */
    static boolean appliesTo(AccessControlEntry e, KafkaPrincipal principal, String host) {
        return (e.principal().equals(principal) || e.principal().equals(AccessControlEntry.WILDCARD_PRINCIPAL))
                && (e.host().equals(AccessControlEntry.WILDCARD_HOST) || e.host().equals(host));
    }
}
