package io.kaas.coordinator.transaction;

import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.coordinator.CoordinatorTimer;
import io.kaas.coordinator.group.OffsetManager;
import io.kaas.wire.protocol.Errors;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finishes a transaction once its PrepareCommit or PrepareAbort is durable: the markers to every partition (all at
 * once through {@link MarkerWriter}; failed ones retried with backoff, each attempt bounded, with no overall limit;
 * a partition is given up only when the writer answers UNKNOWN_TOPIC_OR_PARTITION, i.e. the topic is gone from the
 * cluster, or, as Kafka, INVALID_PRODUCER_EPOCH: the partition knows a newer epoch of the producer), then the
 * pending offsets of its groups (committed on COMMIT, dropped on ABORT), then the CompleteCommit or CompleteAbort
 * state, retried until durable. Until then the id stays in its Prepare state, so clients get
 * CONCURRENT_TRANSACTIONS. Stops retrying once the coordinator is closed (the next start finishes).
 */
final class TransactionCompleter {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionCompleter.class);
    static final long ATTEMPT_TIMEOUT_MS = 30_000;
    static final long MIN_BACKOFF_MS = 100;
    static final long MAX_BACKOFF_MS = 5_000;

    /** Writes a state change of an id whose pending state the caller has set; completes with the error code. */
    interface StateWriter {
        CompletableFuture<Short> write(TransactionMetadata md, TransactionImage target);
    }

    private final CoordinatorTimer timer;
    private final MarkerWriter markers;
    private final OffsetManager offsets;
    private final StateWriter writer;
    private final BooleanSupplier closed;

    TransactionCompleter(CoordinatorTimer timer, MarkerWriter markers, OffsetManager offsets, StateWriter writer,
                         BooleanSupplier closed) {
        this.timer = timer;
        this.markers = markers;
        this.offsets = offsets;
        this.writer = writer;
        this.closed = closed;
    }

    /**
     * Completes {@code prepared}, the durable Prepare image of {@code md}.
     *
     * @return completes once the Complete state is durable; exceptionally with a CancellationException if the
     *         coordinator closed first
     */
    CompletableFuture<Void> complete(TransactionMetadata md, TransactionImage prepared) {
        Completion c = new Completion(md, prepared);
        md.completion = c.done;
        timer.schedule(0, () -> c.sendMarkers(new LinkedHashSet<>(prepared.partitions()), 0));
        return c.done;
    }

    private static long backoff(int attempt) {
        return Math.min(MAX_BACKOFF_MS, MIN_BACKOFF_MS << Math.min(attempt, 10));
    }

    private final class Completion {
        final TransactionMetadata md;
        final TransactionImage prepared;
        final boolean commit;
        final CompletableFuture<Void> done = new CompletableFuture<>();

        Completion(TransactionMetadata md, TransactionImage prepared) {
            this.md = md;
            this.prepared = prepared;
            this.commit = prepared.state() == TransactionState.PREPARE_COMMIT;
        }

        private String result() {
            return commit ? "COMMIT" : "ABORT";
        }

        private boolean stopped() {
            if (closed.getAsBoolean()) {
                done.completeExceptionally(new CancellationException("coordinator closed"));
                return true;
            }
            return false;
        }

        void sendMarkers(Set<TopicPartitionRef> remaining, int attempt) {
            if (stopped()) {
                return;
            }
            if (remaining.isEmpty()) {
                completeOffsets(0);
                return;
            }
            CompletableFuture<Map<TopicPartitionRef, Short>> f;
            try {
                f = markers.write(prepared.producerId(), prepared.producerEpoch(), 0, commit, Set.copyOf(remaining));
            } catch (RuntimeException e) {
                f = CompletableFuture.failedFuture(e);
            }
            f.orTimeout(ATTEMPT_TIMEOUT_MS, TimeUnit.MILLISECONDS).whenComplete((result, error) -> {
                Set<TopicPartitionRef> left = new LinkedHashSet<>();
                for (TopicPartitionRef tp : remaining) {
                    Short code = error == null ? result.get(tp) : null;
                    if (code != null && code == Errors.NONE) {
                        continue;
                    }
                    if (code != null && code == Errors.UNKNOWN_TOPIC_OR_PARTITION) {
                        LOG.atWarn().addKeyValue("transactionalId", md.transactionalId)
                                .addKeyValue("producerId", prepared.producerId()).addKeyValue("partition", tp)
                                .log("Gave up the {} marker of transactional id {} (producer id {}, epoch {}) on {}: "
                                        + "the partition no longer exists", result(), md.transactionalId,
                                        prepared.producerId(), prepared.producerEpoch(), tp);
                        continue;
                    }
                    if (code != null && (code == Errors.INVALID_PRODUCER_EPOCH
                            || code == Errors.TRANSACTION_COORDINATOR_FENCED)) {
                        // as Kafka's marker handler: the partition has moved past this epoch, no marker is needed
                        LOG.atError().addKeyValue("transactionalId", md.transactionalId)
                                .addKeyValue("producerId", prepared.producerId()).addKeyValue("partition", tp)
                                .log("Dropped the {} marker of transactional id {} (producer id {}, epoch {}) on {}: "
                                        + "the partition refuses it (error code {}), it knows a newer epoch",
                                        result(), md.transactionalId, prepared.producerId(), prepared.producerEpoch(),
                                        tp, code);
                        continue;
                    }
                    left.add(tp);
                    LOG.atWarn().addKeyValue("transactionalId", md.transactionalId)
                            .addKeyValue("producerId", prepared.producerId()).addKeyValue("partition", tp)
                            .log("Could not write the {} marker of transactional id {} (producer id {}, epoch {}) on "
                                    + "{} (attempt {}): {}; retrying in {} ms", result(), md.transactionalId,
                                    prepared.producerId(), prepared.producerEpoch(), tp, attempt + 1,
                                    error != null ? String.valueOf(error) : "error code " + code, backoff(attempt));
                }
                if (left.isEmpty()) {
                    // Not on this thread, which may be the engine's durability thread: committing the offsets waits
                    // for an append of __consumer_offsets to become durable, which that thread would have to report.
                    timer.schedule(0, () -> completeOffsets(0));
                } else {
                    timer.schedule(backoff(attempt), () -> sendMarkers(left, attempt + 1));
                }
            });
        }

        void completeOffsets(int attempt) {
            if (stopped()) {
                return;
            }
            if (offsets != null) {
                for (Map.Entry<String, Map<TopicPartitionRef, OffsetManager.Commit>> g : prepared.groups().entrySet()) {
                    try {
                        offsets.completeTransactional(g.getKey(), prepared.producerId(), commit, g.getValue());
                    } catch (RuntimeException e) {
                        LOG.atWarn().setCause(e).addKeyValue("transactionalId", md.transactionalId)
                                .addKeyValue("group", g.getKey())
                                .log("Could not {} the transactional offsets of group {} for transactional id {} "
                                        + "(producer id {}); retrying in {} ms", commit ? "commit" : "drop",
                                        g.getKey(), md.transactionalId, prepared.producerId(), backoff(attempt));
                        timer.schedule(backoff(attempt), () -> completeOffsets(attempt + 1));
                        return;
                    }
                }
            }
            writeComplete(0);
        }

        void writeComplete(int attempt) {
            if (stopped()) {
                return;
            }
            TransactionImage target;
            synchronized (md) {
                if (md.pending != null) { // cannot happen: nothing else changes a Prepare id
                    timer.schedule(backoff(attempt), () -> writeComplete(attempt + 1));
                    return;
                }
                target = completed(prepared, timer.nowMs());
                md.pending = target.state();
            }
            writer.write(md, target).whenComplete((code, error) -> {
                if (error == null && code == Errors.NONE) {
                    LOG.atDebug() // one per transaction: Kafka logs completions at debug too.addKeyValue("transactionalId", md.transactionalId)
                            .addKeyValue("producerId", prepared.producerId())
                            .log("Completed the {} of the transaction of transactional id {} (producer id {}, epoch {}) "
                                    + "on {} partitions and {} groups", result(), md.transactionalId,
                                    prepared.producerId(), prepared.producerEpoch(), prepared.partitions().size(),
                                    prepared.groups().size());
                    done.complete(null);
                } else {
                    LOG.atWarn().addKeyValue("transactionalId", md.transactionalId)
                            .log("Could not write the completion of transactional id {} (error {}); retrying in {} ms",
                                    md.transactionalId, error != null ? error : code, backoff(attempt));
                    timer.schedule(backoff(attempt), () -> writeComplete(attempt + 1));
                }
            });
        }
    }

    /**
     * Kafka's prepareComplete: CompleteCommit or CompleteAbort, no partitions or groups, the last epoch set to the
     * epoch of the markers; under transactions V2 with an exhausted epoch the producer continues with the next
     * producer id at epoch 0 (the old id kept as the previous one, so a retried EndTxn is recognised).
     */
    static TransactionImage completed(TransactionImage prepared, long now) {
        TransactionState state = prepared.state() == TransactionState.PREPARE_COMMIT
                ? TransactionState.COMPLETE_COMMIT : TransactionState.COMPLETE_ABORT;
        TransactionImage c = prepared.withTransaction(Set.of(), Map.of(), prepared.startTimeMs()).withState(state, now);
        if (prepared.nextProducerId() >= 0) {
            return c.withProducer(prepared.nextProducerId(), prepared.producerId(), -1, (short) 0,
                    prepared.producerEpoch());
        }
        return c.withProducer(prepared.producerId(), prepared.previousProducerId(), -1, prepared.producerEpoch(),
                prepared.producerEpoch());
    }
}
