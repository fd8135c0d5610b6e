package io.kaas.coordinator.group;

/** A request refused with a Kafka error code and message; thrown inside the coordinator, never past it. */
final class GroupException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    final short errorCode;

    GroupException(short errorCode, String message) {
        super(message, null, false, false);
        this.errorCode = errorCode;
    }
}
