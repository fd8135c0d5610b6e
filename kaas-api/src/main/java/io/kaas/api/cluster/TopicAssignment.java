package io.kaas.api.cluster;

import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * The writers of every partition of one topic, with the version of the stored record for compare-and-set writes
 * ({@link ClusterStateStore#updateAssignments}).
 *
 * @param topicId    the topic's id
 * @param topic      the topic's name
 * @param partitions one entry per partition, by index; as many as the topic has partitions
 * @param version    the version of the stored record this was read as; {@link #NEW} for one not stored yet
 */
public record TopicAssignment(UUID topicId, String topic, List<PartitionLeader> partitions, long version) {
    /** The version of an assignment that is not stored yet. */
    public static final long NEW = -1;

    public TopicAssignment {
        Objects.requireNonNull(topicId, "topicId");
        Objects.requireNonNull(topic, "topic");
        partitions = List.copyOf(partitions);
    }

    public PartitionLeader partition(int index) {
        return partitions.get(index);
    }

    /** This assignment with {@code leaders} instead, to be written over the version it was read as. */
    public TopicAssignment with(List<PartitionLeader> leaders) {
        return new TopicAssignment(topicId, topic, leaders, version);
    }
}
