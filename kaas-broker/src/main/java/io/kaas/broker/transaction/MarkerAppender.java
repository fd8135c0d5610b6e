package io.kaas.broker.transaction;

import io.kaas.api.record.CorruptBatchException;
import io.kaas.api.record.ProducedBatches;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.ProducerState;
import io.kaas.broker.topic.StorageErrors;
import io.kaas.broker.topic.TopicManager;
import io.kaas.records.BatchBuilder;
import io.kaas.wire.protocol.Errors;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends one transaction marker (a COMMIT or ABORT control batch in Kafka's format, {@link BatchBuilder#marker})
 * to one partition this broker serves, durably: the answer is NONE only once the marker is fsynced. The one
 * place markers are written, by the WriteTxnMarkers handler and by {@link LocalMarkerWriter}. Thread-safe.
 */
public final class MarkerAppender {
    private static final Logger LOG = LoggerFactory.getLogger(MarkerAppender.class);

    /** Told of each marker once it is durable, before the marker is answered. */
    @FunctionalInterface
    public interface MarkerListener {
        /**
         * The marker of {@code producerId} is durable in {@code topic}-{@code partition}.
         *
         * @return completes with NONE, or the error to answer for the marker (the coordinator sends it again)
         */
        CompletableFuture<Short> written(String topic, int partition, long producerId, boolean commit);
    }

    private final TopicManager topics;
    private final VerificationGuards guards;
    private final Clock clock;
    private final MarkerListener listener;

    /** @param guards the guards of Produce's verified transactional batches, which a marker invalidates */
    public MarkerAppender(TopicManager topics, VerificationGuards guards, Clock clock) {
        this(topics, guards, clock, (topic, partition, producerId, commit) -> CompletableFuture.completedFuture(Errors.NONE));
    }

    /**
     * @param listener told of each durable marker (the group coordinator ends the transactional offsets a marker to
     *                 {@code __consumer_offsets} ends)
     */
    public MarkerAppender(TopicManager topics, VerificationGuards guards, Clock clock, MarkerListener listener) {
        this.topics = topics;
        this.guards = guards;
        this.clock = clock;
        this.listener = listener;
    }

    /**
     * Appends the marker of {@code producerId}/{@code producerEpoch} to {@code topic}-{@code partition}.
     *
     * @return Kafka's error code: NONE once durable; UNKNOWN_TOPIC_OR_PARTITION if the partition does not exist;
     *         NOT_LEADER_OR_FOLLOWER if it exists but this broker does not write it;
     *         the engine's refusal otherwise (INVALID_PRODUCER_EPOCH for an epoch older than the partition knows,
     *         KAFKA_STORAGE_ERROR for a failed write or an offline partition…); never completes exceptionally
     */
    public CompletableFuture<Short> append(String topic, int partition, long producerId, short producerEpoch,
                                           int coordinatorEpoch, boolean commit) {
        return append(topic, partition, producerId, producerEpoch, coordinatorEpoch, commit, false);
    }

    /**
     * As {@link #append(String, int, long, short, int, boolean)}; with {@code bumpedEpoch} (a transactions-V2 marker,
     * WriteTxnMarkers v2 {@code TransactionVersion} 2, KIP-1228) the coordinator has bumped the producer's epoch for
     * the marker, so, as Kafka 4.4, an epoch not above the one the partition knows for the producer is
     * INVALID_PRODUCER_EPOCH: a late duplicate of an earlier transaction's marker is refused, not written.
     */
    public CompletableFuture<Short> append(String topic, int partition, long producerId, short producerEpoch,
                                           int coordinatorEpoch, boolean commit, boolean bumpedEpoch) {
        PartitionLog log = topics.log(topic, partition);
        if (log == null) {
            // As Kafka: a partition that exists but is written by another broker (or by none yet) is not led here.
            boolean exists = partition >= 0
                && topics.topic(topic).map(t -> partition < t.partitionCount()).orElse(false);
            return CompletableFuture.completedFuture(exists ? Errors.NOT_LEADER_OR_FOLLOWER
                : Errors.UNKNOWN_TOPIC_OR_PARTITION);
        }
        if (bumpedEpoch) {
            try {
                for (ProducerState state : log.producers()) {
                    if (state.producerId() == producerId && producerEpoch <= state.producerEpoch()) {
                        LOG.atWarn().addKeyValue("topic", topic).addKeyValue("partition", partition)
                            .addKeyValue("producerId", producerId).addKeyValue("producerEpoch", producerEpoch)
                            .log("{} marker (transactions V2) of producer {} at epoch {} not written to {}-{}: the"
                                + " partition already has epoch {}; answered INVALID_PRODUCER_EPOCH",
                                commit ? "COMMIT" : "ABORT", producerId, producerEpoch, topic, partition,
                                state.producerEpoch());
                        return CompletableFuture.completedFuture(Errors.INVALID_PRODUCER_EPOCH);
                    }
                }
            } catch (RuntimeException e) {
                return CompletableFuture.completedFuture(failed(topic, partition, producerId, producerEpoch, commit, e));
            }
        }
        long now = clock.millis();
        ProducedBatches marker;
        try {
            marker = ProducedBatches.validate(BatchBuilder.marker(producerId, producerEpoch, coordinatorEpoch, commit, now));
        } catch (CorruptBatchException e) {
            throw new IllegalStateException("BatchBuilder built an invalid marker: " + e.getMessage(), e);
        }
        CompletableFuture<?> appended;
        try {
            appended = guards.marker(log.key(), producerId, now, () -> log.append(marker, true));
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(failed(topic, partition, producerId, producerEpoch, commit, e));
        }
        // The marker moves the last stable offset: read_committed fetches waiting on the partition may answer now.
        topics.appended(log.key());
        // As a produce: answered written only while this broker still writes the partition at the epoch it opened it
        // with (a fenced broker's marker lands beyond its successor's start, where it is never read).
        return appended.handle((r, e) -> e != null ? failed(topic, partition, producerId, producerEpoch, commit, e)
                : topics.topic(topic).map(t -> topics.mayAcknowledge(t, partition)).orElse(false) ? Errors.NONE
                : Errors.NOT_LEADER_OR_FOLLOWER)
            .thenCompose(code -> code != Errors.NONE ? CompletableFuture.completedFuture(code)
                : listener.written(topic, partition, producerId, commit));
    }

    private static short failed(String topic, int partition, long producerId, short producerEpoch, boolean commit,
                                Throwable e) {
        short code = StorageErrors.code(e);
        LOG.atWarn().addKeyValue("topic", topic).addKeyValue("partition", partition)
                .addKeyValue("producerId", producerId).addKeyValue("producerEpoch", producerEpoch)
                .addKeyValue("errorCode", code)
                .log("{} marker of producer {} (epoch {}) not written to {}-{}: {}", commit ? "COMMIT" : "ABORT",
                        producerId, producerEpoch, topic, partition, StorageErrors.message(e));
        return code;
    }
}
