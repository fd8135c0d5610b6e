package io.kaas.broker.handler;

import io.kaas.api.cluster.TopicPartitionRef;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * How Produce asks the transaction coordinator about a transactional batch before appending it (KIP-890 part 1):
 * the signature of {@code TransactionCoordinator.addPartitions}, which the broker passes.
 */
public interface TransactionVerifier {

    /**
     * @param verifyOnly true: only checks every partition is in the ongoing transaction; false: adds those missing
     *                   (Produce v12+, transactions V2)
     * @return the coordinator's error code of each partition
     */
    CompletableFuture<Map<TopicPartitionRef, Short>> addPartitions(String transactionalId, long producerId,
                                                                  short producerEpoch,
                                                                  Collection<TopicPartitionRef> partitions,
                                                                  boolean verifyOnly);

    /**
     * Completes once the transactional id's last ended transaction is complete (at once if none is completing): what
     * an implicit add answered CONCURRENT_TRANSACTIONS waits for before it asks again. The default has none to wait
     * for, and the broker then waits its retry backoff.
     */
    default CompletableFuture<Void> completion(String transactionalId) {
        return CompletableFuture.completedFuture(null);
    }
}
