package io.kaas.api.auth;

import java.util.List;
import java.util.Objects;

/**
 * The outcome of one DeleteAcls filter.
 *
 * @param errorCode    Kafka's error code: 0 when every matching ACL was removed, INVALID_REQUEST (42) for a
 *                     filter that cannot be applied, UNKNOWN_SERVER_ERROR (-1) when the store failed (then
 *                     nothing of the filter was removed)
 * @param errorMessage what went wrong, null on success
 * @param deleted      the ACLs the filter matched and removed; empty on failure
 */
public record AclDeleteResult(short errorCode, String errorMessage, List<AclBinding> deleted) {
    public AclDeleteResult {
        deleted = List.copyOf(Objects.requireNonNull(deleted, "deleted"));
    }

    public static AclDeleteResult of(List<AclBinding> deleted) {
        return new AclDeleteResult((short) 0, null, deleted);
    }

    public static AclDeleteResult failed(short errorCode, String message) {
        return new AclDeleteResult(errorCode, message, List.of());
    }
}
