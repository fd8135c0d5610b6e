package io.kaas.coordinator.group;

/** A group config change refused with Kafka's error code (INVALID_CONFIG, INVALID_REQUEST) and message. */
public final class GroupConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final short errorCode;

    GroupConfigException(short errorCode, String message) {
        super(message, null, false, false);
        this.errorCode = errorCode;
    }

    public short errorCode() {
        return errorCode;
    }
}
