package io.kaas.coordinator.transaction;

import io.kaas.api.cluster.TopicPartitionRef;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Writes transaction markers to data partitions: the WriteTxnMarkers path. On one broker the broker's own
 * WriteTxnMarkers handler appends them; with several brokers the same request goes to each partition's
 * writer. Every marker is durable (fsynced) before its partition reports NONE.
 *
 * <p>The coordinator calls it from its timer's thread ({@link io.kaas.coordinator.CoordinatorTimer}), all partitions
 * of a transaction at once, and again for the partitions that failed (backoff 100 ms doubling to 5 s, each attempt
 * bounded to 30 s): return the future without waiting for the appends to be durable.
 */
public interface MarkerWriter {

    /**
     * Appends a COMMIT or ABORT control batch of {@code producerId} and {@code producerEpoch} to each partition.
     *
     * @return the error code of each partition (NONE once its marker is durable; UNKNOWN_TOPIC_OR_PARTITION
     *         only if the partition does not exist in the cluster; anything else is retriable)
     */
    CompletableFuture<Map<TopicPartitionRef, Short>> write(long producerId, short producerEpoch, int coordinatorEpoch,
                                                           boolean commit, Set<TopicPartitionRef> partitions);
}
