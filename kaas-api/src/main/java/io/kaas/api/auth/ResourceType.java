package io.kaas.api.auth;

/**
 * The kinds of resource an action applies to, with Kafka's codes ({@code ResourceType}) and the
 * Kafka error a denial is answered with.
 */
public enum ResourceType {
    /** Denied: TOPIC_AUTHORIZATION_FAILED (29). */
    TOPIC(2, (short) 29),
    /** Denied: GROUP_AUTHORIZATION_FAILED (30). */
    GROUP(3, (short) 30),
    /** The one cluster, named {@link Action#CLUSTER_NAME}. Denied: CLUSTER_AUTHORIZATION_FAILED (31). */
    CLUSTER(4, (short) 31),
    /** Denied: TRANSACTIONAL_ID_AUTHORIZATION_FAILED (53). */
    TRANSACTIONAL_ID(5, (short) 53),
    /** A delegation token, by token id. Denied: DELEGATION_TOKEN_AUTHORIZATION_FAILED (65). */
    DELEGATION_TOKEN(6, (short) 65),
    /** A user (the owner of delegation tokens), by name. Denied: DELEGATION_TOKEN_AUTHORIZATION_FAILED (65). */
    USER(7, (short) 65);

    private final byte code;
    private final short deniedErrorCode;

    ResourceType(int code, short deniedErrorCode) {
        this.code = (byte) code;
        this.deniedErrorCode = deniedErrorCode;
    }

    /** Kafka's code for the resource type (as in DescribeConfigs and the ACL APIs). */
    public byte code() {
        return code;
    }

    /** The type of Kafka's code {@code code}, empty for UNKNOWN (0), ANY (1) and codes Kafka does not define. */
    public static java.util.Optional<ResourceType> fromCode(byte code) {
        for (ResourceType t : values()) {
            if (t.code == code) {
                return java.util.Optional.of(t);
            }
        }
        return java.util.Optional.empty();
    }

    /** The Kafka error code a request denied on this kind of resource gets. */
    public short deniedErrorCode() {
        return deniedErrorCode;
    }
}
