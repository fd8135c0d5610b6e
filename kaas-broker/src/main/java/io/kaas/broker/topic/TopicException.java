package io.kaas.broker.topic;

/**
 * A topic operation refused with a Kafka error code (INVALID_TOPIC_EXCEPTION, INVALID_PARTITIONS,
 * INVALID_CONFIG, TOPIC_ALREADY_EXISTS, …) and the message a Kafka broker would give.
 */
public class TopicException extends RuntimeException {
    private final short errorCode;

    public TopicException(short errorCode, String message) {
        super(message, null, false, false);
        this.errorCode = errorCode;
    }

    public short errorCode() {
        return errorCode;
    }
}
