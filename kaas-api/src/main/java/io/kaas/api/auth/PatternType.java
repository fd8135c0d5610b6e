package io.kaas.api.auth;

import java.util.Optional;

/**
 * How an ACL's resource name matches resource names, with Kafka's codes ({@code PatternType}). A stored
 * {@link ResourcePattern} is {@link #LITERAL} or {@link #PREFIXED}; {@link #ANY} and {@link #MATCH} appear
 * only in a {@link ResourcePatternFilter}.
 */
public enum PatternType {
    /** Filters only: any pattern type, the name compared exactly. */
    ANY(1),
    /** Filters only: every pattern that would match the filter's name (literal, {@code *} and prefixes). */
    MATCH(2),
    /** The name exactly; the name {@code *} matches every resource of the type. */
    LITERAL(3),
    /** Every resource whose name starts with the pattern's name. */
    PREFIXED(4);

    private final byte code;

    PatternType(int code) {
        this.code = (byte) code;
    }

    /** Kafka's code. */
    public byte code() {
        return code;
    }

    /** Whether a stored ACL may have this pattern type (LITERAL or PREFIXED). */
    public boolean isSpecific() {
        return this == LITERAL || this == PREFIXED;
    }

    /** The pattern type of Kafka's code, empty for UNKNOWN (0) and codes Kafka does not define. */
    public static Optional<PatternType> fromCode(byte code) {
        for (PatternType t : values()) {
            if (t.code == code) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}
