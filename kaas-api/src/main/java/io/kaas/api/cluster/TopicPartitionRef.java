package io.kaas.api.cluster;

import java.util.Objects;

/**
 * A partition named by topic name and index, as consumer groups refer to it: committed offsets are
 * keyed by topic <em>name</em> (as in Kafka, where OffsetCommit below v10 carries names only).
 *
 * @param topic     the topic name, never null
 * @param partition the partition index, never negative
 */
public record TopicPartitionRef(String topic, int partition) {
    public TopicPartitionRef {
        Objects.requireNonNull(topic, "topic");
        if (partition < 0) {
            throw new IllegalArgumentException("negative partition " + partition);
        }
    }

    @Override
    public String toString() {
        return topic + "-" + partition;
    }
}
