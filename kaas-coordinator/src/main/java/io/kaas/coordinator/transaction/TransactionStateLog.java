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

    /** Opens partition {@code index} (creating the topic on first use). */
    PartitionLog partition(int index) throws IOException;
}
