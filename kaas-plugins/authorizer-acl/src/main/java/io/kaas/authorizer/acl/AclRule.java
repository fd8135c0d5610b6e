package io.kaas.authorizer.acl;

import io.kaas.api.auth.KafkaPrincipal;
import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import java.util.Set;

/**
 * One parsed line of the ACL file.
 *
 * @param allow         ALLOW if true, DENY if false
 * @param principalType the principal type it applies to, or null for every principal ({@code *})
 * @param principalName the principal name, or null for every name of {@code principalType} ({@code User:*})
 * @param operation     the operation named, possibly ALL
 * @param allows        for an ALLOW rule, the operations it allows (the named one and those it implies)
 * @param type          the resource type
 * @param name          the literal name or the prefix; null for every name
 * @param prefixed      whether {@code name} is a prefix
 */
record AclRule(boolean allow, String principalType, String principalName, Operation operation,
               Set<Operation> allows, ResourceType type, String name, boolean prefixed) {

    boolean matchesResource(String resourceName) {
        if (name == null) {
            return true;
        }
        return prefixed ? resourceName.startsWith(name) : resourceName.equals(name);
    }

    boolean matchesPrincipal(KafkaPrincipal principal) {
        return (principalType == null || principalType.equals(principal.type()))
                && (principalName == null || principalName.equals(principal.name()));
    }

    /** A DENY of {@code op} or of ALL; a DENY is never widened to implied operations, as in Kafka. */
    boolean denies(Operation op) {
        return !allow && (operation == op || operation == Operation.ALL);
    }

    boolean allows(Operation op) {
        return allow && allows.contains(op);
    }
}
