package io.kaas.api.storage;

import java.util.Objects;
import java.util.UUID;

/**
 * Identifies one partition. The topic id is stable for the life of the topic; a topic re-created
 * under the same name gets a new id, so engines should key storage by id as well as name.
 */
public record PartitionKey(String topic, UUID topicId, int partition) {
    public PartitionKey {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(topicId, "topicId");
        if (partition < 0) {
            throw new IllegalArgumentException("negative partition " + partition);
        }
    }

    @Override
    public String toString() {
        return topic + "-" + partition;
    }
}
