package io.kaas.broker.handler;

/**
 * The authorized-operations bit fields Kafka returns when no authorizer is configured: every operation
 * the resource type supports (bit n set for {@code AclOperation} code n).
 */
final class AuthorizedOperations {
    /** Kafka's "not requested" value. */
    static final int OMITTED = Integer.MIN_VALUE;

    private static final int READ = 3;
    private static final int WRITE = 4;
    private static final int CREATE = 5;
    private static final int DELETE = 6;
    private static final int ALTER = 7;
    private static final int DESCRIBE = 8;
    private static final int CLUSTER_ACTION = 9;
    private static final int DESCRIBE_CONFIGS = 10;
    private static final int ALTER_CONFIGS = 11;
    private static final int IDEMPOTENT_WRITE = 12;

    static final int TOPIC = bits(READ, WRITE, CREATE, DELETE, ALTER, DESCRIBE, DESCRIBE_CONFIGS, ALTER_CONFIGS);
    static final int CLUSTER = bits(CREATE, CLUSTER_ACTION, DESCRIBE_CONFIGS, ALTER_CONFIGS, IDEMPOTENT_WRITE, ALTER, DESCRIBE);

    private AuthorizedOperations() {
    }

    private static int bits(int... ops) {
        int b = 0;
        for (int op : ops) {
            b |= 1 << op;
        }
        return b;
    }
}
