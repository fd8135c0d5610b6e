package io.kaas.api.cluster;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Durable cluster state. Thread-safe; methods may block on I/O and are never called on a network
 * event loop. Every mutating method is durable when it returns (for the file store: written to a
 * temporary file, fsynced, renamed, directory fsynced); a failure to persist throws
 * {@link ClusterStateException} and leaves the previous state in force.
 * Closed once, if and only if it was opened successfully.
 */
public interface ClusterStateStore extends AutoCloseable {

    /** The cluster id, created once (22-character URL-safe base64 of a random UUID, as Kafka's) and then stable. */
    String clusterId();

    /** Every topic, in no particular order. A snapshot: later changes do not show in it. */
    Collection<TopicRecord> topics();

    Optional<TopicRecord> topic(String name);

    Optional<TopicRecord> topic(UUID topicId);

    /** Stores a new topic. @throws TopicExistsException if the name is taken */
    void createTopic(TopicRecord topic);

    /** Removes a topic. @throws UnknownTopicException if absent */
    void deleteTopic(String name);

    /** Replaces a topic's config overrides. @throws UnknownTopicException if absent */
    TopicRecord updateTopicConfigs(String name, Map<String, String> configs);

    /** Raises a topic's partition count. @throws UnknownTopicException if absent */
    TopicRecord updatePartitionCount(String name, int partitions);

    /**
     * Reserves {@code size} consecutive producer ids that no other call, on this or any broker, before
     * or after a restart, will hand out again. @return the first id of the block
     */
    long allocateProducerIdBlock(int size);

    @Override
    void close();
}
