package io.kaas.api.storage;

/**
 * What a partition knows of one producer, as Kafka's DescribeProducers reports it: the producers with
 * state on the partition, idempotent and transactional alike.
 *
 * @param producerId            the producer id
 * @param producerEpoch         its current epoch on this partition: that of its last data batch or marker
 * @param lastSequence          the last sequence of its last data batch of that epoch, -1 if none (e.g. after
 *                              a marker that bumped the epoch)
 * @param lastTimestamp         the max timestamp of its last data batch or the timestamp of its last marker,
 *                              -1 if unknown
 * @param coordinatorEpoch      the coordinator epoch of its last marker, -1 if none was written
 * @param currentTxnStartOffset the first offset of its open transaction on this partition, -1 if none is open
 */
public record ProducerState(long producerId, int producerEpoch, int lastSequence, long lastTimestamp,
                            int coordinatorEpoch, long currentTxnStartOffset) {
}
