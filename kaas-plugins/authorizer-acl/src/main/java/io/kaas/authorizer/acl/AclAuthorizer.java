package io.kaas.authorizer.acl;

import io.kaas.api.auth.Action;
import io.kaas.api.auth.AuthorizableRequestContext;
import io.kaas.api.auth.AuthorizationResult;
import io.kaas.api.auth.Authorizer;
import io.kaas.api.auth.KafkaPrincipal;
import io.kaas.api.auth.ResourceType;
import java.util.ArrayList;
import java.util.EnumMap;
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
