package io.kaas.coordinator.transaction;

import io.kaas.coordinator.CoordinatorTimer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine-independent replacement of compaction for {@code __transaction_state}: when a partition holds many
 * more records than live transactional ids, the live state of each id is written again at the partition's end and
 * the records before that rewrite are deleted ({@code deleteRecordsBefore}). A crash in between leaves duplicates
 * only, which the load resolves (the last record of an id wins). The rewrite is made under the partition's monitor,
 * and only while no id of the partition has a change in flight, so no newer record of an id precedes it.
 */
final class StateCleanup {
    private static final Logger LOG = LoggerFactory.getLogger(StateCleanup.class);
    /** A partition is rewritten once it holds more than this many records... */
    static final long MIN_RECORDS = 1_000;
    /** ...and more than this many per live id. */
    static final long RECORDS_PER_ID = 4;

    private final StatePartitions state;
    private final CoordinatorTimer timer;
    private final Map<String, TransactionMetadata> txns;
    private final AtomicIntegerArray running;
    /** Per partition, the record count above which the next check runs (so a check is not made on every write). */
    private final java.util.concurrent.atomic.AtomicLongArray threshold;
    private final long minRecords;

    StateCleanup(StatePartitions state, CoordinatorTimer timer, Map<String, TransactionMetadata> txns) {
        this(state, timer, txns, MIN_RECORDS);
    }

    StateCleanup(StatePartitions state, CoordinatorTimer timer, Map<String, TransactionMetadata> txns, long minRecords) {
        this.state = state;
        this.timer = timer;
        this.txns = txns;
        this.running = new AtomicIntegerArray(state.count());
        this.threshold = new java.util.concurrent.atomic.AtomicLongArray(state.count());
        for (int p = 0; p < state.count(); p++) {
            threshold.set(p, minRecords);
        }
        this.minRecords = minRecords;
    }

    /** Schedules a rewrite of {@code partition} if it is due (cheap when it is not). */
    void maybeRewrite(int partition) {
        if (state.records(partition) <= threshold.get(partition)) {
            return;
        }
        if (running.compareAndSet(partition, 0, 1)) {
            timer.schedule(0, () -> {
                CompletableFuture<Long> f = CompletableFuture.completedFuture(null);
                try {
                    f = rewriteIfDue(partition);
                } finally {
                    f.whenComplete((r, e) -> running.set(partition, 0));
                }
            });
        }
    }

    /** Checks every partition (the expiry pass). */
    void rewriteAllDue() {
        for (int p = 0; p < state.count(); p++) {
            maybeRewrite(p);
        }
    }

    /**
     * Rewrites {@code partition} if it holds more than {@link #RECORDS_PER_ID} records per live id and no id of it
     * has a change in flight.
     *
     * @return completes once the old records are deleted (with the new log start), or with null if not due
     */
    CompletableFuture<Long> rewriteIfDue(int partition) {
        CompletableFuture<Long> f;
        Map<String, TransactionImage> live = new LinkedHashMap<>();
        synchronized (state.lock(partition)) {
            for (TransactionMetadata md : txns.values()) {
                if (md.partition != partition) {
                    continue;
                }
                synchronized (md) {
                    if (md.pending != null) {
                        return CompletableFuture.completedFuture(null); // again after the next change
                    }
                    if (md.durable && md.image.state() != TransactionState.DEAD) {
                        live.put(md.transactionalId, md.image);
                    }
                }
            }
            long records = state.records(partition);
            threshold.set(partition, Math.max(minRecords, RECORDS_PER_ID * live.size()));
            if (records <= threshold.get(partition)) {
                return CompletableFuture.completedFuture(null);
            }
            LOG.info("Rewriting the {} live transactional ids of {}-{} at its end: it holds {} records",
                    live.size(), TransactionCoordinator.TOPIC, partition, records);
            f = state.rewrite(partition, live);
        }
        return f.whenComplete((start, e) -> {
            if (e != null) {
                LOG.warn("Could not rewrite {}-{}: {}; its records stay, the next pass retries",
                        TransactionCoordinator.TOPIC, partition, e.toString());
            } else {
                LOG.info("Rewrote {}-{}: records before offset {} deleted, {} live transactional ids kept",
                        TransactionCoordinator.TOPIC, partition, start, live.size());
            }
        });
    }
}
