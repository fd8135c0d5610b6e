package io.kaas.coordinator.transaction;

import io.kaas.api.storage.PartitionLog;
import java.io.IOException;

/**
 * Where transaction state is kept: the partitions of the internal topic {@code __transaction_state}, opened
 * by the broker through the storage engine (so the state lives on the same volume, with the same durability,
 * as the data, and moves with partition ownership once several brokers share the volume). A transactional id
 * belongs to partition {@code abs(id.hashCode()) % partitionCount()}, as in Kafka.
 */
public interface TransactionStateLog {

    /** The number of partitions; fixed once the topic exists. */
    int partitionCount();

    /** Opens partition {@code index} (creating the topic on first use). Cheap after the first call. */
    PartitionLog partition(int index) throws IOException;

    /**
     * Whether the topic exists already: the coordinator loads its partitions at start only then, so a broker
     * that never saw a transaction does not create it. The default (true) makes the coordinator open every
     * partition at start.
     */
    default boolean exists() {
        return true;
    }
}
