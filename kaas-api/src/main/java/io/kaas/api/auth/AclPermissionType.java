package io.kaas.api.auth;

import java.util.Optional;

/** Whether an ACL allows or denies, with Kafka's codes ({@code AclPermissionType}); a DENY wins. */
public enum AclPermissionType {
    DENY(2),
    ALLOW(3);

    private final byte code;

    AclPermissionType(int code) {
        this.code = (byte) code;
    }

    /** Kafka's code. */
    public byte code() {
        return code;
    }

    /** The permission of Kafka's code, empty for UNKNOWN (0), ANY (1) and codes Kafka does not define. */
    public static Optional<AclPermissionType> fromCode(byte code) {
        for (AclPermissionType t : values()) {
            if (t.code == code) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}
