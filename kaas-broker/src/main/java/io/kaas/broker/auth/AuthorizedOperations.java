package io.kaas.broker.auth;

import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import java.util.Collection;
import java.util.EnumSet;
import java.util.Set;

/**
 * Kafka's authorized-operations bit fields (Metadata, DescribeCluster, DescribeGroups,
 * ConsumerGroupDescribe, DescribeTopicPartitions): bit {@code n} set for the {@code AclOperation} of
 * code {@code n} the principal may perform, among the operations the resource type supports
 * ({@code AclEntry.supportedOperations}). Computed per request by {@link RequestAccess#authorizedOperations}.
 */
public final class AuthorizedOperations {
    /** Kafka's value for a field the request did not ask for. */
    public static final int OMITTED = Integer.MIN_VALUE;

    private AuthorizedOperations() {
    }

    /** The operations Kafka reports for a resource of {@code type}, as in its {@code AclEntry.supportedOperations}. */
    public static Set<Operation> supported(ResourceType type) {
        return switch (type) {
            case TOPIC -> EnumSet.of(Operation.READ, Operation.WRITE, Operation.CREATE, Operation.DESCRIBE,
                    Operation.DELETE, Operation.ALTER, Operation.DESCRIBE_CONFIGS, Operation.ALTER_CONFIGS);
            case GROUP -> EnumSet.of(Operation.READ, Operation.DESCRIBE, Operation.DELETE, Operation.DESCRIBE_CONFIGS,
                    Operation.ALTER_CONFIGS);
            case CLUSTER -> EnumSet.of(Operation.CREATE, Operation.CLUSTER_ACTION, Operation.DESCRIBE_CONFIGS,
                    Operation.ALTER_CONFIGS, Operation.IDEMPOTENT_WRITE, Operation.ALTER, Operation.DESCRIBE);
            case TRANSACTIONAL_ID -> EnumSet.of(Operation.DESCRIBE, Operation.WRITE);
            case DELEGATION_TOKEN -> EnumSet.of(Operation.DESCRIBE);
            case USER -> EnumSet.of(Operation.CREATE_TOKENS, Operation.DESCRIBE_TOKENS);
        };
    }

    /** The bit field of {@code operations}: bit {@code op.code()} per operation. */
    public static int bits(Collection<Operation> operations) {
        int bits = 0;
        for (Operation op : operations) {
            bits |= 1 << op.code();
        }
        return bits;
    }
}
