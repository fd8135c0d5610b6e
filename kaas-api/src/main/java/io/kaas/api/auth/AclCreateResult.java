package io.kaas.api.auth;

/**
 * The outcome of creating one ACL (CreateAcls answers one per binding, in order).
 *
 * @param errorCode    Kafka's error code: 0 when the ACL is stored (or was already), INVALID_REQUEST (42)
 *                     for a binding that cannot be stored, UNKNOWN_SERVER_ERROR (-1) when the store failed
 * @param errorMessage what went wrong, null on success
 */
public record AclCreateResult(short errorCode, String errorMessage) {
    /** Kafka's INVALID_REQUEST. */
    public static final short INVALID_REQUEST = 42;
    /** Kafka's UNKNOWN_SERVER_ERROR. */
    public static final short UNKNOWN_SERVER_ERROR = -1;
    /** Stored. */
    public static final AclCreateResult SUCCESS = new AclCreateResult((short) 0, null);

    public static AclCreateResult failed(short errorCode, String message) {
        return new AclCreateResult(errorCode, message);
    }

    public boolean succeeded() {
        return errorCode == 0;
    }
}
