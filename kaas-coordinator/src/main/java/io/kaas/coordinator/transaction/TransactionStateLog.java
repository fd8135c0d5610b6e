package io.kaas.coordinator.transaction;

/**
 * Where transaction state is kept: the partitions of the internal topic {@code __transaction_state}, opened by the
 * broker through the storage engine (so the state lives on the same volume, with the same durability, as the data,
 * and moves with partition ownership). A transactional id belongs to partition
 * {@code abs(id.hashCode()) % partitionCount()}, as in Kafka; the broker hands the partitions over as it gains them
 * ({@link TransactionCoordinator#onPartitionGained}).
 */
@FunctionalInterface
public interface TransactionStateLog {

    /** The number of partitions; fixed once the topic exists. */
    int partitionCount();
}
