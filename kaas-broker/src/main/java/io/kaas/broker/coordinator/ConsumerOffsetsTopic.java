package io.kaas.broker.coordinator;

import io.kaas.broker.topic.TopicManager;
import io.kaas.coordinator.group.ConsumerOffsetsLog;

/**
 * {@link ConsumerOffsetsLog} over the internal topic {@code __consumer_offsets} ({@link CoordinatorTopic}), with
 * {@code offsets.topic.num.partitions} partitions and {@code segment.bytes} from {@code offsets.topic.segment.bytes}.
 * Thread-safe.
 */
public final class ConsumerOffsetsTopic extends CoordinatorTopic implements ConsumerOffsetsLog {
    /** Kafka's name of the topic. */
    public static final String NAME = "__consumer_offsets";

    /**
     * @param configuredPartitions {@code offsets.topic.num.partitions}, used when the topic is created
     * @param segmentBytes         {@code offsets.topic.segment.bytes}
     */
    public ConsumerOffsetsTopic(TopicManager topics, int configuredPartitions, int segmentBytes) {
        super(NAME, topics, configuredPartitions, segmentBytes);
    }
}
