package io.kaas.broker.handler.group;

import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.broker.handler.TransactionVerifier;
import io.kaas.coordinator.group.OffsetManager;
import io.kaas.wire.protocol.Errors;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * A TxnOffsetCommit whose transaction coordinator is another broker, handled as Kafka's group coordinator handles
 * every one: the group's membership and partitions are checked here, the transaction coordinator verifies that the
 * transaction is open with the group's {@code __consumer_offsets} partition in it (AddPartitionsToTxn
 * {@code verify_only}; from v5, transactions V2, it adds the partition), then the offsets are written to that
 * partition as a transactional batch of the producer and wait there for the transaction's marker
 * ({@link OffsetManager#commitTransactionalInLog}).
 */
final class RemoteTxnOffsetCommit {
    static final String CONSUMER_OFFSETS = "__consumer_offsets";

    private final OffsetManager offsets;
    private final TransactionVerifier verifier;
    private final Executor blocking;

    /** @param blocking runs the durable write, which blocks (never an event loop) */
    RemoteTxnOffsetCommit(OffsetManager offsets, TransactionVerifier verifier, Executor blocking) {
        this.offsets = offsets;
        this.verifier = verifier;
        this.blocking = blocking;
    }

    CompletableFuture<Map<TopicPartitionRef, Short>> commit(String transactionalId, long producerId, short producerEpoch,
                                                            String groupId, String memberId, int generationId,
                                                            String groupInstanceId, List<OffsetManager.Commit> commits,
                                                            boolean implicitAdd) {
        if (groupId == null) {
            return CompletableFuture.completedFuture(all(commits, Errors.INVALID_GROUP_ID));
        }
        short error = offsets.validateTransactionalCommit(groupId, memberId, groupInstanceId, generationId);
        if (error != Errors.NONE) {
            return CompletableFuture.completedFuture(all(commits, error));
        }
        Map<TopicPartitionRef, Short> result = new LinkedHashMap<>();
        Map<TopicPartitionRef, OffsetManager.Commit> valid = new LinkedHashMap<>();
        for (OffsetManager.Commit c : commits) {
            short e = offsets.validateCommitPartition(c);
            result.put(c.partition(), e);
            if (e == Errors.NONE) {
                valid.put(c.partition(), c);
            }
        }
        if (valid.isEmpty()) {
            return CompletableFuture.completedFuture(result);
        }
        TopicPartitionRef offsetsPartition = new TopicPartitionRef(CONSUMER_OFFSETS, offsets.partitionFor(groupId));
        return verifier.addPartitions(transactionalId, producerId, producerEpoch, List.of(offsetsPartition), !implicitAdd)
                .thenApplyAsync(verified -> {
                    short code = verificationError(verified.getOrDefault(offsetsPartition, Errors.UNKNOWN_SERVER_ERROR));
                    if (code == Errors.NONE) {
                        code = offsets.commitTransactionalInLog(groupId, producerId, producerEpoch, valid);
                    }
                    short answer = code;
                    valid.keySet().forEach(tp -> result.put(tp, answer));
                    return result;
                }, blocking);
    }

    /**
     * The answer to give for the coordinator's verification: Kafka answers INVALID_PRODUCER_EPOCH where the
     * coordinator says PRODUCER_FENCED, and a coordinator that could not be reached is retriable for the producer
     * (COORDINATOR_NOT_AVAILABLE) rather than the NETWORK_EXCEPTION it would treat as fatal here.
     */
    private static short verificationError(short code) {
        if (code == Errors.PRODUCER_FENCED) {
            return Errors.INVALID_PRODUCER_EPOCH;
        }
        if (code == Errors.NETWORK_EXCEPTION) {
            return Errors.COORDINATOR_NOT_AVAILABLE;
        }
        return code;
    }

    private static Map<TopicPartitionRef, Short> all(List<OffsetManager.Commit> commits, short code) {
        Map<TopicPartitionRef, Short> out = new LinkedHashMap<>();
        commits.forEach(c -> out.put(c.partition(), code));
        return out;
    }
}
