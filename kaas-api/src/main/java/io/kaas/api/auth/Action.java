package io.kaas.api.auth;

import java.util.Objects;

/**
 * An operation on a named resource, e.g. WRITE on TOPIC {@code orders}. The cluster is named
 * {@link #CLUSTER_NAME}, as in Kafka.
 *
 * @param operation    what is done; never {@link Operation#ALL} (ALL only appears in rules)
 * @param resourceType on what kind of resource
 * @param resourceName the resource's name (a topic or group name, a transactional id, {@link #CLUSTER_NAME})
 */
public record Action(Operation operation, ResourceType resourceType, String resourceName) {
    /** The name of the one CLUSTER resource, as in Kafka. */
    public static final String CLUSTER_NAME = "kafka-cluster";

    public Action {
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(resourceType, "resourceType");
        Objects.requireNonNull(resourceName, "resourceName");
        if (operation == Operation.ALL) {
            throw new IllegalArgumentException("ALL is not an operation a request performs; ask for each one");
        }
    }

    /** {@code operation} on topic {@code name}. */
    public static Action onTopic(Operation operation, String name) {
        return new Action(operation, ResourceType.TOPIC, name);
    }

    /** {@code operation} on the cluster. */
    public static Action onCluster(Operation operation) {
        return new Action(operation, ResourceType.CLUSTER, CLUSTER_NAME);
    }
}
