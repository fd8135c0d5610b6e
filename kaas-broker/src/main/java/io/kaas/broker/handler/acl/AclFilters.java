package io.kaas.broker.handler.acl;

import io.kaas.api.auth.AccessControlEntryFilter;
import io.kaas.api.auth.AclBindingFilter;
import io.kaas.api.auth.ResourcePatternFilter;

/** A DescribeAcls or DeleteAcls filter read from its wire fields, as Kafka reads it. */
final class AclFilters {
    private AclFilters() {
    }

    /** Why a filter cannot be used: its pattern part or its entry part holds an UNKNOWN value. */
    enum Unknown { PATTERN, ENTRY }

    /** A filter, or which part of it is UNKNOWN. */
    record Read(AclBindingFilter filter, Unknown unknown) {
    }

    static Read read(byte resourceType, String name, byte patternType, String principal, String host, byte operation,
                     byte permission) {
        ResourcePatternFilter pattern;
        try {
            pattern = new ResourcePatternFilter(AclCodes.resourceType(resourceType), name,
                    AclCodes.patternType(patternType));
        } catch (AclCodes.Unknown e) {
            return new Read(null, Unknown.PATTERN);
        }
        AccessControlEntryFilter entry;
        try {
            entry = new AccessControlEntryFilter(principal, host, AclCodes.operation(operation),
                    AclCodes.permission(permission));
        } catch (AclCodes.Unknown e) {
            return new Read(null, Unknown.ENTRY);
        }
        return new Read(new AclBindingFilter(pattern, entry), null);
    }

    /** Whether any field holds code 0, which Kafka's request parser refuses outright. */
    static boolean hasUnknownCode(byte... codes) {
        for (byte c : codes) {
            if (c == AclCodes.UNKNOWN) {
                return true;
            }
        }
        return false;
    }
}
