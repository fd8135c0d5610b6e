package io.kaas.broker.coordinator;

import io.kaas.broker.topic.Topic;
import io.kaas.broker.topic.TopicManager;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * An internal topic a coordinator keeps its state in ({@code __consumer_offsets}, {@code __transaction_state}), opened
 * through the storage engine like any topic (so its partitions live on the data volume, are fsynced like
 * {@code acks=all} data and move with partition ownership). Created on first use, as Kafka creates it, with its
 * configured partition count, {@code cleanup.policy=delete}, unlimited retention (the coordinator removes superseded
 * records itself, so no engine needs compaction for it) and its {@code segment.bytes}. Thread-safe.
 */
public class CoordinatorTopic {
    private final String name;
    private final TopicManager topics;
    private final int configuredPartitions;
    private volatile Consumer<Topic> onAvailable = t -> { };

    /**
     * Defines the topic with the topic manager, so that it is created with these settings however it is first used
     * (by FindCoordinator, by the coordinator, or by a Metadata request's auto-creation).
     *
     * @param configuredPartitions its {@code *.num.partitions} key, used when the topic is created
     * @param segmentBytes         its {@code *.segment.bytes} key
     */
    public CoordinatorTopic(String name, TopicManager topics, int configuredPartitions, int segmentBytes) {
        this.name = name;
        this.topics = topics;
        this.configuredPartitions = configuredPartitions;
        topics.defineInternal(name, configuredPartitions, Map.of("cleanup.policy", "delete", "retention.ms", "-1",
                "retention.bytes", "-1", "segment.bytes", Integer.toString(segmentBytes)));
    }

    public String name() {
        return name;
    }

    /**
     * Told of the topic each time {@link #ensureCreated} finds or creates it (the single-broker ownership gives its
     * partitions to the coordinator on the first call).
     */
    public void onAvailable(Consumer<Topic> listener) {
        this.onAvailable = listener;
    }

    /** The partition count of the topic if it exists, else the count it will be created with. */
    public int partitionCount() {
        return topics.topic(name).map(Topic::partitionCount).orElse(configuredPartitions);
    }

    /** Kafka's placement of a group or transactional id: {@code Utils.abs(key.hashCode()) % partitionCount()}. */
    public int partitionFor(String key) {
        int h = key.hashCode();
        return (h == Integer.MIN_VALUE ? 0 : Math.abs(h)) % partitionCount();
    }

    /** Whether the topic exists. */
    public boolean exists() {
        return topics.topic(name).isPresent();
    }

    /**
     * The topic, created now with the settings of the class comment if it does not exist yet.
     *
     * @throws IOException if it cannot be created (the storage engine or the cluster store refused)
     */
    public Topic ensureCreated() throws IOException {
        Optional<Topic> existing = topics.topic(name);
        Topic topic;
        if (existing.isPresent()) {
            topic = existing.get();
        } else {
            try {
                topic = topics.createInternal(name);
            } catch (RuntimeException e) {
                throw new IOException("cannot create the internal topic " + name + ": " + e.getMessage(), e);
            }
        }
        onAvailable.accept(topic);
        return topic;
    }
}
