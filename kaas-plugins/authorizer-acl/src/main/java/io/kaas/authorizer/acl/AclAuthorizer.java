package io.kaas.authorizer.acl;

import io.kaas.api.auth.Action;
import io.kaas.api.auth.AuthorizableRequestContext;
import io.kaas.api.auth.AuthorizationResult;
import io.kaas.api.auth.Authorizer;
import io.kaas.api.auth.KafkaPrincipal;
import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides actions against a fixed list of rules with Kafka's semantics (see the package doc).
 * Immutable after construction, hence thread-safe; {@link #authorize} does no I/O and no locking.
 */
final class AclAuthorizer implements Authorizer {
    private final Map<ResourceType, List<AclRule>> rulesByType = new EnumMap<>(ResourceType.class);
    private final Set<KafkaPrincipal> superUsers;
    private final boolean allowEveryoneIfNoAclFound;
    private final int ruleCount;

    AclAuthorizer(List<AclRule> rules, Set<KafkaPrincipal> superUsers, boolean allowEveryoneIfNoAclFound) {
        for (ResourceType type : ResourceType.values()) {
            rulesByType.put(type, rules.stream().filter(r -> r.type() == type).toList());
        }
        this.superUsers = Set.copyOf(superUsers);
        this.allowEveryoneIfNoAclFound = allowEveryoneIfNoAclFound;
        this.ruleCount = rules.size();
    }

    @Override
    public List<AuthorizationResult> authorize(AuthorizableRequestContext request, List<Action> actions) {
        List<AuthorizationResult> results = new ArrayList<>(actions.size());
        boolean superUser = superUsers.contains(request.principal());
        for (Action action : actions) {
            results.add(superUser || allowed(request.principal(), action)
                    ? AuthorizationResult.ALLOWED : AuthorizationResult.DENIED);
        }
        return results;
    }

    private boolean allowed(KafkaPrincipal principal, Action action) {
        boolean resourceHasRules = false;
        boolean allowed = false;
        for (AclRule rule : rulesByType.get(action.resourceType())) {
            if (!rule.matchesResource(action.resourceName())) {
                continue;
            }
            resourceHasRules = true;
            if (!rule.matchesPrincipal(principal)) {
                continue;
            }
            if (rule.denies(action.operation())) {
                return false;
            }
            allowed |= rule.allows(action.operation());
        }
        return allowed || (!resourceHasRules && allowEveryoneIfNoAclFound);
    }

    /**
     * Kafka's {@code authorizeByResourceType}: allowed for a super user, for a principal allowed on the
     * probe resource (everyone, with {@code allow.everyone.if.no.acl.found} and no rule naming it), or when
     * an ALLOW of {@code operation} (or ALL) on the type matches the principal and no matching DENY covers
     * it: a DENY on every name, the same literal name, or a prefix of the allowed name or prefix.
     */
    @Override
    public AuthorizationResult authorizeByResourceType(AuthorizableRequestContext request, Operation operation,
                                                       ResourceType type) {
        if (operation == Operation.ALL) {
            throw new IllegalArgumentException("ALL is not an operation a request performs; ask for each one");
        }
        KafkaPrincipal principal = request.principal();
        if (superUsers.contains(principal) || allowed(principal, new Action(operation, type, PROBE_NAME))) {
            return AuthorizationResult.ALLOWED;
        }
        List<AclRule> allows = new ArrayList<>();
        Set<String> deniedLiterals = new HashSet<>();
        Set<String> deniedPrefixes = new HashSet<>();
        boolean wildcardAllow = false;
        for (AclRule rule : rulesByType.get(type)) {
            if (!rule.matchesPrincipal(principal) || (rule.operation() != operation && rule.operation() != Operation.ALL)) {
                continue;
            }
            if (!rule.allow()) {
                if (rule.name() == null) {
                    return AuthorizationResult.DENIED;
                }
                (rule.prefixed() ? deniedPrefixes : deniedLiterals).add(rule.name());
            } else if (rule.name() == null) {
                wildcardAllow = true;
            } else {
                allows.add(rule);
            }
        }
        if (wildcardAllow) {
            return AuthorizationResult.ALLOWED;
        }
        for (AclRule allow : allows) {
            boolean literalDenied = !allow.prefixed() && deniedLiterals.contains(allow.name());
            if (!literalDenied && !coveredByPrefix(allow.name(), deniedPrefixes)) {
                return AuthorizationResult.ALLOWED;
            }
        }
        return AuthorizationResult.DENIED;
    }

    private static boolean coveredByPrefix(String name, Set<String> prefixes) {
        for (int end = 0; end <= name.length(); end++) {
            if (prefixes.contains(name.substring(0, end))) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() {
        // nothing held
    }

    @Override
    public String toString() {
        return "AclAuthorizer[" + ruleCount + " rules, " + superUsers.size() + " super users, allowEveryoneIfNoAclFound="
                + allowEveryoneIfNoAclFound + "]";
    }
}
