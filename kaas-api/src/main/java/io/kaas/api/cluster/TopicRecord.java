package io.kaas.api.cluster;

import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * A topic as the cluster knows it.
 *
 * @param name       the topic name
 * @param topicId    a random UUID chosen at creation and never reused
 * @param partitions the number of partitions
 * @param configs    the topic's config overrides (Kafka names), without broker defaults
 */
public record TopicRecord(String name, UUID topicId, int partitions, Map<String, String> configs) {
    public TopicRecord {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(topicId, "topicId");
        configs = Map.copyOf(configs);
        if (partitions <= 0) {
            throw new IllegalArgumentException("a topic needs at least one partition, got " + partitions);
        }
    }

    public TopicRecord withConfigs(Map<String, String> newConfigs) {
        return new TopicRecord(name, topicId, partitions, newConfigs);
    }

    public TopicRecord withPartitions(int newPartitions) {
        return new TopicRecord(name, topicId, newPartitions, configs);
    }
}
