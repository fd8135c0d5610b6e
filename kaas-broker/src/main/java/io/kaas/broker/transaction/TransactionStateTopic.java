package io.kaas.broker.transaction;

import io.kaas.api.storage.PartitionLog;
import io.kaas.broker.topic.Topic;
import io.kaas.broker.topic.TopicManager;
import io.kaas.coordinator.transaction.TransactionStateLog;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;

/**
 * {@link TransactionStateLog} over the internal topic {@code __transaction_state}, opened through the storage
 * engine like any topic (so its partitions live on the data volume, are fsynced like {@code acks=all} data and
 * will move with partition ownership). Created on first use, as Kafka creates it, with
 * {@code transaction.state.log.num.partitions} partitions, {@code cleanup.policy=delete}, unlimited retention
 * (the coordinator removes superseded records itself, so no engine needs compaction for it) and
 * {@code segment.bytes} from {@code transaction.state.log.segment.bytes}. Thread-safe.
 */
public final class TransactionStateTopic implements TransactionStateLog {
    /** Kafka's name of the topic. */
    public static final String NAME = "__transaction_state";

    private final TopicManager topics;
    private final int configuredPartitions;

    /**
     * Defines the topic with the topic manager, so that it is created with these settings however it is first
     * used (by the coordinator, by FindCoordinator, or by a Metadata request's auto-creation).
     *
     * @param configuredPartitions {@code transaction.state.log.num.partitions}, used when the topic is created
     * @param segmentBytes         {@code transaction.state.log.segment.bytes}
     */
    public TransactionStateTopic(TopicManager topics, int configuredPartitions, int segmentBytes) {
        this.topics = topics;
        this.configuredPartitions = configuredPartitions;
        topics.defineInternal(NAME, configuredPartitions, Map.of("cleanup.policy", "delete", "retention.ms", "-1",
                "retention.bytes", "-1", "segment.bytes", Integer.toString(segmentBytes)));
    }

    /** The partition count of the topic if it exists, else the count it will be created with. */
    @Override
    public int partitionCount() {
        return topics.topic(NAME).map(Topic::partitionCount).orElse(configuredPartitions);
    }

    /** Whether the topic exists (nothing to load from before it does). */
    @Override
    public boolean exists() {
        return topics.topic(NAME).isPresent();
    }

    @Override
    public PartitionLog partition(int index) throws IOException {
        Topic topic = ensureCreated();
        PartitionLog log = topic.log(index);
        if (log == null) {
            throw new IOException(NAME + " has " + topic.partitionCount() + " partitions; there is no partition " + index);
        }
        return log;
    }

    /**
     * The topic, created now with the settings of the class comment if it does not exist yet.
     *
     * @throws IOException if it cannot be created (the storage engine or the cluster store refused)
     */
    public Topic ensureCreated() throws IOException {
        Optional<Topic> existing = topics.topic(NAME);
        if (existing.isPresent()) {
            return existing.get();
        }
        try {
            return topics.createInternal(NAME);
        } catch (RuntimeException e) {
            throw new IOException("cannot create the internal topic " + NAME + ": " + e.getMessage(), e);
        }
    }
}
