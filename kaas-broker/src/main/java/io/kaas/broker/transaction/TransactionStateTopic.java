package io.kaas.broker.transaction;

import io.kaas.broker.coordinator.CoordinatorTopic;
import io.kaas.broker.topic.TopicManager;
import io.kaas.coordinator.transaction.TransactionStateLog;

/**
 * {@link TransactionStateLog} over the internal topic {@code __transaction_state} ({@link CoordinatorTopic}), with
 * {@code transaction.state.log.num.partitions} partitions and {@code segment.bytes} from
 * {@code transaction.state.log.segment.bytes}. Thread-safe.
 */
public final class TransactionStateTopic extends CoordinatorTopic implements TransactionStateLog {
    /** Kafka's name of the topic. */
    public static final String NAME = "__transaction_state";

    /**
     * @param configuredPartitions {@code transaction.state.log.num.partitions}, used when the topic is created
     * @param segmentBytes         {@code transaction.state.log.segment.bytes}
     */
    public TransactionStateTopic(TopicManager topics, int configuredPartitions, int segmentBytes) {
        super(NAME, topics, configuredPartitions, segmentBytes);
    }
}
