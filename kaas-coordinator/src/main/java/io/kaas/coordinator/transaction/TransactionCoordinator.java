package io.kaas.coordinator.transaction;

import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.coordinator.CoordinatorContext;
import io.kaas.coordinator.group.GroupCoordinator;
import io.kaas.coordinator.group.OffsetManager;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The transaction coordinator (KIP-98, KIP-360, KIP-447, KIP-890): per transactional id its producer id and
 * epoch, state and partitions, made durable in {@link TransactionStateLog} before a change is acknowledged;
 * markers written through {@link MarkerWriter}; transactional offset commits staged with the group coordinator
 * until the transaction ends. Error codes are Kafka's ({@code io.kaas.wire.protocol.Errors}). Thread-safe.
 *
 * <p>SKELETON: the signatures are the contract with the broker's handlers; the bodies are being written.
 */
public final class TransactionCoordinator implements AutoCloseable {

    /** InitProducerId's answer. */
    public record InitResult(short errorCode, long producerId, short producerEpoch) {
    }

    /** EndTxn's answer; v5+ (transactions V2) returns the producer id and epoch the client continues with. */
    public record EndResult(short errorCode, long producerId, short producerEpoch) {
    }

    /** DescribeTransactions' view of one transactional id. */
    public record Description(String transactionalId, TransactionState state, long producerId, short producerEpoch,
                              int timeoutMs, long startTimeMs, Set<TopicPartitionRef> partitions) {
    }

    /** ListTransactions' view of one transactional id. */
    public record Listing(String transactionalId, long producerId, TransactionState state) {
    }

    private TransactionCoordinator() {
    }

    /** A coordinator over {@code log}; call {@link #start} before anything else. */
    public static TransactionCoordinator create(CoordinatorContext context, TransactionConfig config,
                                                TransactionStateLog log, MarkerWriter markers, ProducerIds ids,
                                                GroupCoordinator groups) {
        throw new UnsupportedOperationException("skeleton");
    }

    /**
     * Loads every partition of the state log that exists (last record per transactional id wins), finishes the
     * transactions found in PrepareCommit, PrepareAbort or PrepareEpochFence (markers, then the Complete state),
     * re-stages the pending offsets of Ongoing ones, and schedules the timeout and expiry passes.
     */
    public void start() throws IOException {
        throw new UnsupportedOperationException("skeleton");
    }

    /** The state-log partition that owns {@code transactionalId}: {@code abs(hashCode) % partitions}, as Kafka. */
    public int partitionFor(String transactionalId) {
        throw new UnsupportedOperationException("skeleton");
    }

    /**
     * InitProducerId with a transactional id (non-empty; the handler answers the idempotent case itself with
     * {@link ProducerIds}).
     *
     * @param producerId    -1, or the id the producer has (KIP-360 re-initialisation after an abortable error)
     * @param producerEpoch -1, or the producer's epoch
     */
    public CompletableFuture<InitResult> initProducerId(String transactionalId, int transactionTimeoutMs,
                                                        long producerId, short producerEpoch,
                                                        boolean enable2Pc, boolean keepPreparedTxn) {
        throw new UnsupportedOperationException("skeleton");
    }

    /**
     * AddPartitionsToTxn, and the broker's own verification of a transactional Produce (KIP-890).
     *
     * @param verifyOnly true: only checks that every partition is in the ongoing transaction (v4+ verify-only
     *                   form, Produce below v12); false: adds those missing, durably, opening the transaction if
     *                   none is open (client form v0-3, and Produce v12+ under transactions V2)
     * @return the error code of each partition
     */
    public CompletableFuture<Map<TopicPartitionRef, Short>> addPartitions(String transactionalId, long producerId,
                                                                         short producerEpoch,
                                                                         Collection<TopicPartitionRef> partitions,
                                                                         boolean verifyOnly) {
        throw new UnsupportedOperationException("skeleton");
    }

    /** AddOffsetsToTxn: adds {@code groupId}'s offsets to the transaction, durably. */
    public CompletableFuture<Short> addOffsets(String transactionalId, long producerId, short producerEpoch,
                                               String groupId) {
        throw new UnsupportedOperationException("skeleton");
    }

    /**
     * TxnOffsetCommit: validates the group membership (KIP-447 fields; -1 / empty when absent) with the group
     * coordinator and the transaction, makes the offsets durable as pending, and stages them with the group
     * coordinator (OffsetFetch with require_stable answers UNSTABLE_OFFSET_COMMIT for them) until the transaction
     * ends: committed on COMMIT, dropped on ABORT.
     *
     * @param implicitAdd true for v5+ (transactions V2): the group is added to the transaction if missing;
     *                    false: the group must have been added by AddOffsetsToTxn (else INVALID_TXN_STATE)
     * @return the error code of each partition, in request order
     */
    public CompletableFuture<Map<TopicPartitionRef, Short>> commitOffsets(String transactionalId, long producerId,
                                                                         short producerEpoch, String groupId,
                                                                         String memberId, int generationId,
                                                                         String groupInstanceId,
                                                                         List<OffsetManager.Commit> offsets,
                                                                         boolean implicitAdd) {
        throw new UnsupportedOperationException("skeleton");
    }

    /**
     * EndTxn: moves to PrepareCommit or PrepareAbort durably and answers; the markers and the Complete state
     * follow (a new transaction meanwhile gets CONCURRENT_TRANSACTIONS).
     *
     * @param transactionV2 EndTxn v5+: the epoch is bumped on every end (a new producer id when exhausted) and
     *                      the answer carries the id and epoch to use next
     */
    public CompletableFuture<EndResult> endTransaction(String transactionalId, long producerId, short producerEpoch,
                                                       boolean commit, boolean transactionV2) {
        throw new UnsupportedOperationException("skeleton");
    }

    /** DescribeTransactions of one id; empty if unknown (TRANSACTIONAL_ID_NOT_FOUND). */
    public Optional<Description> describe(String transactionalId) {
        throw new UnsupportedOperationException("skeleton");
    }

    /**
     * ListTransactions: every id matching all given filters (empty sets match all; {@code durationFilterMs} &lt; 0
     * matches all, else only transactions open longer than that, KIP-994).
     */
    public List<Listing> list(Set<TransactionState> states, Set<Long> producerIds, long durationFilterMs) {
        throw new UnsupportedOperationException("skeleton");
    }

    @Override
    public void close() {
    }
}
