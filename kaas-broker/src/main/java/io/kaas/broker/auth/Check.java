package io.kaas.broker.auth;

import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import java.util.Objects;

/**
 * One per-resource question an API's contract allows its handler to ask through {@link RequestAccess}:
 * may the request perform {@code operation} on a resource of {@code type} named in its body? A handler
 * can ask no other question, so the contract is the complete list of what an API checks.
 *
 * @param operation what is done to the resource
 * @param type      the kind of resource named in the request
 * @param orCluster whether {@code operation} on the cluster allows it for every resource of the type, as
 *                  Kafka does for CREATE on topics (CreateTopics, Metadata auto-creation) and DESCRIBE on
 *                  groups (ListGroups)
 */
public record Check(Operation operation, ResourceType type, boolean orCluster) {

    public Check {
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(type, "type");
        if (operation == Operation.ALL) {
            throw new IllegalArgumentException("ALL is not a question; declare each operation");
        }
    }

    /** {@code operation} on the named resource of {@code type}. */
    public static Check of(Operation operation, ResourceType type) {
        return new Check(operation, type, false);
    }

    /** {@code operation} on the cluster, or else on the named resource of {@code type}. */
    public static Check orCluster(Operation operation, ResourceType type) {
        return new Check(operation, type, true);
    }

    /** Whether this check answers the question of {@code operation} on {@code type}. */
    boolean answers(Operation operation, ResourceType type) {
        return this.operation == operation && this.type == type;
    }
}
