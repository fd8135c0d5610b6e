package io.kaas.broker.handler.acl;

import io.kaas.api.auth.AclPermissionType;
import io.kaas.api.auth.Operation;
import io.kaas.api.auth.PatternType;
import io.kaas.api.auth.ResourceType;

/**
 * Kafka's wire codes of the ACL enums, read as Kafka reads them: code 0 is UNKNOWN, 1 ANY (2 MATCH for
 * pattern types), a code Kafka does not define reads as UNKNOWN. {@link #name} gives the name Kafka's messages use.
 */
final class AclCodes {
    static final byte UNKNOWN = 0;
    static final byte ANY = 1;

    private AclCodes() {
    }

    /** The resource type, or null for ANY; UNKNOWN (and undefined codes) throw. */
    static ResourceType resourceType(byte code) throws Unknown {
        return code == ANY ? null : ResourceType.fromCode(code).orElseThrow(Unknown::new);
    }

    static PatternType patternType(byte code) throws Unknown {
        return PatternType.fromCode(code).orElseThrow(Unknown::new);
    }

    /** The operation, or null for ANY. */
    static Operation operation(byte code) throws Unknown {
        return code == ANY ? null : Operation.fromCode(code).orElseThrow(Unknown::new);
    }

    /** The permission, or null for ANY. */
    static AclPermissionType permission(byte code) throws Unknown {
        return code == ANY ? null : AclPermissionType.fromCode(code).orElseThrow(Unknown::new);
    }

    /** The resource type's name as Kafka prints it: UNKNOWN, ANY, TOPIC… */
    static String resourceTypeName(byte code) {
        return code == ANY ? "ANY" : ResourceType.fromCode(code).map(Enum::name).orElse("UNKNOWN");
    }

    static String patternTypeName(byte code) {
        return PatternType.fromCode(code).map(Enum::name).orElse("UNKNOWN");
    }

    static String operationName(byte code) {
        return code == ANY ? "ANY" : Operation.fromCode(code).map(Enum::name).orElse("UNKNOWN");
    }

    static String permissionName(byte code) {
        return code == ANY ? "ANY" : AclPermissionType.fromCode(code).map(Enum::name).orElse("UNKNOWN");
    }

    /** A code that Kafka reads as UNKNOWN. */
    static final class Unknown extends Exception {
        Unknown() {
            super(null, null, false, false);
        }
    }
}
