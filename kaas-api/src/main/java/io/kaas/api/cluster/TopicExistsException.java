package io.kaas.api.cluster;

/** A topic of that name already exists: TOPIC_ALREADY_EXISTS (36). */
public class TopicExistsException extends RuntimeException {
    public TopicExistsException(String topic) {
        super("Topic '" + topic + "' already exists.");
    }
}
