package io.kaas.broker.handler.acl;

import io.kaas.api.auth.AccessControlEntry;
import io.kaas.api.auth.AclBinding;
import io.kaas.api.auth.AclPermissionType;
import io.kaas.api.auth.Action;
import io.kaas.api.auth.KafkaPrincipal;
import io.kaas.api.auth.Operation;
import io.kaas.api.auth.PatternType;
import io.kaas.api.auth.ResourcePattern;
import io.kaas.api.auth.ResourceType;
import io.kaas.wire.message.CreateAclsRequestData.AclCreation;

/**
 * Reads a CreateAcls creation as the ACL it asks for, refusing it with Kafka's INVALID_REQUEST message in the
 * order Kafka checks (its {@code AclApis}, then its controller's {@code validateNewAcl}).
 *
 * @param binding the ACL to create, or null when refused
 * @param refusal why it is refused, or null
 */
record AclCreationCheck(AclBinding binding, String refusal) {

    static AclCreationCheck of(AclCreation c) {
        try {
            return new AclCreationCheck(binding(c), null);
        } catch (Refused e) {
            return new AclCreationCheck(null, e.getMessage());
        }
    }

    /** The binding a creation asks for, checked in the order Kafka checks it. */
    private static AclBinding binding(AclCreation c) throws Refused {
        String name = c.resourceName();
        if (c.resourceType() == ResourceType.CLUSTER.code() && !Action.CLUSTER_NAME.equals(name)) {
            throw new Refused("The only valid name for the CLUSTER resource is " + Action.CLUSTER_NAME);
        }
        if (name == null || name.isEmpty()) {
            throw new Refused("Invalid empty resource name");
        }
        ResourceType type;
        PatternType patternType;
        try {
            type = AclCodes.resourceType(c.resourceType());
        } catch (AclCodes.Unknown e) {
            type = null;
        }
        if (type == null) {
            throw new Refused("Invalid resourceType " + AclCodes.resourceTypeName(c.resourceType()));
        }
        try {
            patternType = AclCodes.patternType(c.resourcePatternType());
        } catch (AclCodes.Unknown e) {
            patternType = null;
        }
        if (patternType == null || !patternType.isSpecific()) {
            throw new Refused("Invalid patternType " + AclCodes.patternTypeName(c.resourcePatternType()));
        }
        Operation op;
        try {
            op = AclCodes.operation(c.operation());
        } catch (AclCodes.Unknown e) {
            op = null;
        }
        if (op == null) {
            throw new Refused("Invalid operation " + AclCodes.operationName(c.operation()));
        }
        AclPermissionType permission;
        try {
            permission = AclCodes.permission(c.permissionType());
        } catch (AclCodes.Unknown e) {
            permission = null;
        }
        if (permission == null) {
            throw new Refused("Invalid permissionType " + AclCodes.permissionName(c.permissionType()));
        }
        KafkaPrincipal principal = principal(c.principal());
        // As Kafka, any host is stored; only * and the client's IP address ever match.
        String host = c.host() == null ? "" : c.host();
        return new AclBinding(new ResourcePattern(type, name, patternType),
                new AccessControlEntry(principal, host, op, permission));
    }

    private static KafkaPrincipal principal(String text) throws Refused {
        String p = text == null ? "" : text;
        int colon = p.indexOf(':');
        if (colon == -1) {
            throw new Refused("Could not parse principal from `" + p + "` "
                    + "(no colon is present separating the principal type from the principal name)");
        }
        if (colon == 0 || colon == p.length() - 1) {
            throw new Refused("Could not parse principal from `" + p + "` (the principal type and name must "
                    + "not be empty)");
        }
        return new KafkaPrincipal(p.substring(0, colon), p.substring(colon + 1));
    }

    /** A creation that cannot be stored; the message is the one Kafka answers. */
    private static final class Refused extends Exception {
        Refused(String message) {
            super(message, null, false, false);
        }
    }
}
