package io.kaas.broker.topic;

/**
 * What a request's partition creations and deletions are charged against (the {@code controller_mutation_rate}
 * quota): asked once per topic, after the topic's checks and before anything is written, as Kafka's controller.
 */
@FunctionalInterface
public interface PartitionMutations {
    /** Nothing is charged. */
    PartitionMutations NONE = partitions -> { };

    /**
     * Charges {@code partitions} created or deleted.
     *
     * @throws TopicException THROTTLING_QUOTA_EXCEEDED to refuse the topic
     */
    void charge(int partitions);
}
