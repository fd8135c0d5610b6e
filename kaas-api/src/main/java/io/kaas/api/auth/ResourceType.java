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
    TRANSACTIONAL_ID(5, (short) 53);

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

    /** The Kafka error code a request denied on this kind of resource gets. */
    public short deniedErrorCode() {
        return deniedErrorCode;
    }
}
