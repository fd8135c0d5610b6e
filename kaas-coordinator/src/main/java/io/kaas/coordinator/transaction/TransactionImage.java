package io.kaas.coordinator.transaction;

import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.coordinator.group.OffsetManager;
import java.util.Map;
import java.util.Set;

/**
 * Everything the coordinator knows of one transactional id, as written to {@code __transaction_state} after each
 * change ({@link TransactionRecordCodec}): immutable; a change is a new image.
 *
 * @param producerId         the current producer id
 * @param previousProducerId the producer id before the last rotation (epoch exhaustion), or -1
 * @param nextProducerId     while Prepare* under transactions V2 with an exhausted epoch: the id the producer gets
 *                           once the transaction is complete; else -1
 * @param producerEpoch      the current epoch, -1 before the first InitProducerId
 * @param lastProducerEpoch  the epoch before the last bump (retry detection), or -1
 * @param timeoutMs          the producer's {@code transaction.timeout.ms}
 * @param state              the state
 * @param partitions         the data partitions of the open (or completing) transaction
 * @param groups             the consumer groups of the transaction, each with its pending offsets
 * @param startTimeMs        when the transaction started (first partition or group added), or -1
 * @param lastUpdateMs       the time of this change
 * @param transactionV2      the last EndTxn used transactions V2 (epoch bump on every end)
 */
record TransactionImage(long producerId, long previousProducerId, long nextProducerId, short producerEpoch,
                        short lastProducerEpoch, int timeoutMs, TransactionState state,
                        Set<TopicPartitionRef> partitions, Map<String, Map<TopicPartitionRef, OffsetManager.Commit>> groups,
                        long startTimeMs, long lastUpdateMs, boolean transactionV2) {

    TransactionImage {
        partitions = Set.copyOf(partitions);
        groups = copy(groups);
    }

    private static Map<String, Map<TopicPartitionRef, OffsetManager.Commit>> copy(
            Map<String, Map<TopicPartitionRef, OffsetManager.Commit>> groups) {
        java.util.LinkedHashMap<String, Map<TopicPartitionRef, OffsetManager.Commit>> out = new java.util.LinkedHashMap<>();
        groups.forEach((g, o) -> out.put(g, java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(o))));
        return java.util.Collections.unmodifiableMap(out);
    }

    /** A new id before its first InitProducerId is durable. */
    static TransactionImage fresh(long producerId, int timeoutMs, long now) {
        return new TransactionImage(producerId, -1, -1, (short) -1, (short) -1, timeoutMs, TransactionState.EMPTY,
                Set.of(), Map.of(), -1, now, false);
    }

    TransactionImage withState(TransactionState newState, long now) {
        return new TransactionImage(producerId, previousProducerId, nextProducerId, producerEpoch, lastProducerEpoch,
                timeoutMs, newState, partitions, groups, startTimeMs, now, transactionV2);
    }

    TransactionImage withProducer(long newProducerId, long previous, long next, short epoch, short lastEpoch) {
        return new TransactionImage(newProducerId, previous, next, epoch, lastEpoch, timeoutMs, state, partitions,
                groups, startTimeMs, lastUpdateMs, transactionV2);
    }

    TransactionImage withTimeout(int newTimeoutMs) {
        return new TransactionImage(producerId, previousProducerId, nextProducerId, producerEpoch, lastProducerEpoch,
                newTimeoutMs, state, partitions, groups, startTimeMs, lastUpdateMs, transactionV2);
    }

    TransactionImage withTransaction(Set<TopicPartitionRef> newPartitions,
                                     Map<String, Map<TopicPartitionRef, OffsetManager.Commit>> newGroups, long start) {
        return new TransactionImage(producerId, previousProducerId, nextProducerId, producerEpoch, lastProducerEpoch,
                timeoutMs, state, newPartitions, newGroups, start, lastUpdateMs, transactionV2);
    }

    TransactionImage withTransactionV2(boolean v2) {
        return new TransactionImage(producerId, previousProducerId, nextProducerId, producerEpoch, lastProducerEpoch,
                timeoutMs, state, partitions, groups, startTimeMs, lastUpdateMs, v2);
    }

    /**
     * Kafka's prepareFenceProducerEpoch continued as an abort (a new instance initialises, or the transaction timed
     * out): PrepareAbort at the next epoch, no last epoch, and not a V2 end, so the fenced producer's old epoch never
     * passes as a retry. (Kafka bumps in memory before the write and must not bump twice after a failed one; here
     * memory changes only once the write is durable, so every fence bumps from the durable epoch.)
     */
    TransactionImage fenced(long now) {
        short epoch = producerEpoch == Short.MAX_VALUE ? producerEpoch : (short) (producerEpoch + 1);
        return withProducer(producerId, previousProducerId, -1, epoch, (short) -1).withTransactionV2(false)
                .withState(TransactionState.PREPARE_ABORT, now);
    }

    boolean isPrepare() {
        return state == TransactionState.PREPARE_COMMIT || state == TransactionState.PREPARE_ABORT
                || state == TransactionState.PREPARE_EPOCH_FENCE;
    }

    boolean isComplete() {
        return state == TransactionState.COMPLETE_COMMIT || state == TransactionState.COMPLETE_ABORT;
    }

    /** Kafka's isProducerEpochExhausted: the epoch cannot be bumped twice more. */
    boolean epochExhausted() {
        return producerEpoch >= Short.MAX_VALUE - 1;
    }
}
