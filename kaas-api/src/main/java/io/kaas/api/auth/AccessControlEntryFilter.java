package io.kaas.api.auth;

/**
 * Selects entries with Kafka's rules ({@code AccessControlEntryFilter.matches}): each non-null field equal.
 * The principal is compared as text ({@code User:alice}), so a filter naming {@code User:*} selects only
 * entries for {@code User:*}, as in Kafka.
 *
 * @param principal  the principal as {@code <type>:<name>}, or null for any
 * @param host       the host, or null for any
 * @param operation  the operation, or null for any ({@link Operation#ALL} selects only entries of ALL)
 * @param permission the permission, or null for any
 */
public record AccessControlEntryFilter(String principal, String host, Operation operation,
                                       AclPermissionType permission) {
    /** Every entry. */
    public static final AccessControlEntryFilter ANY = new AccessControlEntryFilter(null, null, null, null);

    public boolean matches(AccessControlEntry entry) {
        return (principal == null || principal.equals(entry.principal().toString()))
                && (host == null || host.equals(entry.host()))
                && (operation == null || operation == entry.operation())
                && (permission == null || permission == entry.permission());
    }
}
