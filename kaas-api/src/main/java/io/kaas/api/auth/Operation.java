package io.kaas.api.auth;

import java.util.EnumSet;
import java.util.Set;

/**
 * Operations, with Kafka's codes ({@code AclOperation}; bit {@code code} of an authorized-operations
 * field) and Kafka's implications: an allowed operation also allows the ones {@link #implied()} lists.
 */
public enum Operation {
    /** Every operation; appears in rules, never in an {@link Action}. */
    ALL(2),
    READ(3),
    WRITE(4),
    CREATE(5),
    DELETE(6),
    ALTER(7),
    DESCRIBE(8),
    CLUSTER_ACTION(9),
    DESCRIBE_CONFIGS(10),
    ALTER_CONFIGS(11),
    IDEMPOTENT_WRITE(12),
    /** Creating delegation tokens for a USER (KIP-373). */
    CREATE_TOKENS(13),
    /** Describing the delegation tokens of a USER (KIP-373). */
    DESCRIBE_TOKENS(14);

    private final byte code;

    Operation(int code) {
        this.code = (byte) code;
    }

    /** Kafka's code of the operation. */
    public byte code() {
        return code;
    }

    /** The operation of Kafka's code {@code code}, empty for UNKNOWN (0), ANY (1) and codes Kafka does not define. */
    public static java.util.Optional<Operation> fromCode(byte code) {
        for (Operation op : values()) {
            if (op.code == code) {
                return java.util.Optional.of(op);
            }
        }
        return java.util.Optional.empty();
    }

    /**
     * The operations an ALLOW of this one also allows, itself included, as in Kafka: READ, WRITE,
     * DELETE and ALTER imply DESCRIBE; ALTER_CONFIGS implies DESCRIBE_CONFIGS; ALL implies everything.
     * (A DENY is never widened: denying READ does not deny DESCRIBE; denying ALL denies everything.)
     */
    public Set<Operation> implied() {
        return switch (this) {
            case ALL -> EnumSet.allOf(Operation.class);
            case READ, WRITE, DELETE, ALTER -> EnumSet.of(this, DESCRIBE);
            case ALTER_CONFIGS -> EnumSet.of(this, DESCRIBE_CONFIGS);
            default -> EnumSet.of(this);
        };
    }
}
