package io.kaas.api.cluster;

/** No topic of that name or id: UNKNOWN_TOPIC_OR_PARTITION (3) or UNKNOWN_TOPIC_ID (100). */
public class UnknownTopicException extends RuntimeException {
    public UnknownTopicException(String topic) {
        super("Topic '" + topic + "' does not exist.");
    }
}
