package io.kaas.coordinator.transaction;

import io.kaas.coordinator.CoordinatorTimer;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator's two periodic passes, as Kafka's: every {@code transaction.abort.timed.out.transaction.cleanup
 * .interval.ms} the transactions open longer than their timeout are fenced (epoch bump) and aborted; every
 * {@code transaction.remove.expired.transaction.cleanup.interval.ms} the ids idle (no transaction open) longer than
 * {@code transactional.id.expiration.ms} are removed with a tombstone, and the state partitions due for a rewrite
 * are rewritten.
 */
final class TransactionTimeouts {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionTimeouts.class);

    private final CoordinatorTimer timer;
    private final TransactionConfig config;
    private final Map<String, TransactionMetadata> txns;
    private final StatePartitions state;
    private final StateCleanup cleanup;
    /** Writes a fencing PrepareAbort whose pending state is set, then completes the abort. */
    private final BiFunction<TransactionMetadata, TransactionImage, CompletableFuture<Short>> fenceAndAbort;
    private final BooleanSupplier closed;
    private volatile CoordinatorTimer.Task abortTask;
    private volatile CoordinatorTimer.Task expireTask;

    TransactionTimeouts(CoordinatorTimer timer, TransactionConfig config, Map<String, TransactionMetadata> txns,
                        StatePartitions state, StateCleanup cleanup,
                        BiFunction<TransactionMetadata, TransactionImage, CompletableFuture<Short>> fenceAndAbort,
                        BooleanSupplier closed) {
        this.timer = timer;
        this.config = config;
        this.txns = txns;
        this.state = state;
        this.cleanup = cleanup;
        this.fenceAndAbort = fenceAndAbort;
        this.closed = closed;
    }

    void start() {
        scheduleAbortPass();
        scheduleExpirePass();
    }

    void close() {
        CoordinatorTimer.Task a = abortTask;
        CoordinatorTimer.Task e = expireTask;
        if (a != null) {
            a.cancel();
        }
        if (e != null) {
            e.cancel();
        }
    }

    private void scheduleAbortPass() {
        if (!closed.getAsBoolean()) {
            abortTask = timer.schedule(config.abortTimedOutIntervalMs(), () -> {
                try {
                    abortTimedOut();
                } catch (RuntimeException e) {
                    LOG.error("The pass that aborts timed-out transactions failed", e);
                } finally {
                    scheduleAbortPass();
                }
            });
        }
    }

    private void scheduleExpirePass() {
        if (!closed.getAsBoolean()) {
            expireTask = timer.schedule(config.removeExpiredIntervalMs(), () -> {
                try {
                    expireIdle();
                    cleanup.rewriteAllDue();
                } catch (RuntimeException e) {
                    LOG.error("The pass that removes expired transactional ids failed", e);
                } finally {
                    scheduleExpirePass();
                }
            });
        }
    }

    /** Kafka's abortTimedOutTransactions: fence (bump the epoch) then abort each Ongoing transaction past its timeout. */
    void abortTimedOut() {
        long now = timer.nowMs();
        for (TransactionMetadata md : txns.values()) {
            TransactionImage target;
            synchronized (md) {
                TransactionImage img = md.image;
                if (img.state() != TransactionState.ONGOING || md.pending != null || img.startTimeMs() < 0
                        || now - img.startTimeMs() <= img.timeoutMs()) {
                    continue;
                }
                target = img.fenced(now);
                md.pending = target.state();
                LOG.atInfo().addKeyValue("transactionalId", md.transactionalId)
                        .log("Aborting the transaction of transactional id {} (producer id {}, epoch {}): open for {} "
                                + "ms, beyond its timeout of {} ms; the producer is fenced with epoch {}",
                                md.transactionalId, img.producerId(), img.producerEpoch(), now - img.startTimeMs(),
                                img.timeoutMs(), target.producerEpoch());
            }
            fenceAndAbort.apply(md, target);
        }
    }

    /** Removes ids idle (no transaction open) longer than {@code transactional.id.expiration.ms}: a tombstone. */
    void expireIdle() {
        long now = timer.nowMs();
        for (TransactionMetadata md : txns.values()) {
            synchronized (md) {
                TransactionImage img = md.image;
                boolean idle = img.state() == TransactionState.EMPTY || img.isComplete();
                if (!idle || md.pending != null || now - img.lastUpdateMs() < config.idExpirationMs()) {
                    continue;
                }
                if (!md.durable) { // its first write failed: nothing to remove from the log
                    txns.remove(md.transactionalId, md);
                    continue;
                }
                md.pending = TransactionState.DEAD;
            }
            state.write(md.partition, md.transactionalId, null).whenComplete((r, e) -> {
                synchronized (md) {
                    md.pending = null;
                    if (e == null) {
                        md.image = md.image.withState(TransactionState.DEAD, now);
                        txns.remove(md.transactionalId, md);
                    }
                }
                if (e == null) {
                    LOG.atInfo().addKeyValue("transactionalId", md.transactionalId)
                            .log("Removed transactional id {} (producer id {}): idle for more than {} ms",
                                    md.transactionalId, md.image.producerId(), config.idExpirationMs());
                } else {
                    LOG.atWarn().addKeyValue("transactionalId", md.transactionalId)
                            .log("Could not remove the expired transactional id {}: {}", md.transactionalId,
                                    e.toString());
                }
            });
        }
    }
}
