package io.kaas.api.auth;

import java.util.Objects;

/**
 * Who may (or may not) do what from where, as Kafka's {@code AccessControlEntry}.
 *
 * @param principal  the principal it applies to; {@code User:*} applies to every principal, as in Kafka
 * @param host       the client's IP address it applies to, or {@value #WILDCARD_HOST} for every host
 * @param operation  the operation, possibly {@link Operation#ALL}
 * @param permission ALLOW or DENY
 */
public record AccessControlEntry(KafkaPrincipal principal, String host, Operation operation,
                                 AclPermissionType permission) {
    /** The host that matches every client address. */
    public static final String WILDCARD_HOST = "*";
    /** The principal that matches every principal: {@code User:*}. */
    public static final KafkaPrincipal WILDCARD_PRINCIPAL = new KafkaPrincipal(KafkaPrincipal.USER_TYPE, "*");

    public AccessControlEntry {
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(permission, "permission");
    }

    @Override
    public String toString() {
        return "(principal=" + principal + ", host=" + host + ", operation=" + operation + ", permissionType="
                + permission + ")";
    }
}
