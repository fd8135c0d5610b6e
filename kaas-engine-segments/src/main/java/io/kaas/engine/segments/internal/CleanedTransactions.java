package io.kaas.engine.segments.internal;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.ControlRecords;
import io.kaas.api.storage.AbortedTransaction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one compaction pass knows of transactions, as Kafka's {@code CleanedTransactionMetadata}: it is told of
 * every batch the pass reads, in offset order from the start of the cleanable range, and decides
 *
 * <ul>
 *   <li>which data batches belong to an aborted transaction (their records never enter the key map and are
 *       dropped): a transactional batch of producer p inside an aborted range of p;</li>
 *   <li>whether a COMMIT or ABORT marker may go: only if the pass read no batch of its transaction (its data is
 *       gone, or was emptied and removed by an earlier pass), and only once {@code delete.retention.ms} has passed
 *       since a pass first found it so (Kafka's two passes: the first one stamps a delete horizon, a later one
 *       past the horizon removes the marker). Kafka stamps the horizon in the batch (KIP-534); this engine keeps
 *       it in memory, so after a restart the wait starts again: a marker may stay longer than in Kafka, never
 *       shorter. A marker that is the last thing a still active producer wrote (its producer state has no data
 *       batch of the marker's epoch, as after a Transactions V2 epoch bump; active: an open transaction or a
 *       write within Kafka's {@code producer.id.expiration.ms}) is kept for the producer's epoch, as Kafka
 *       keeps it.</li>
 * </ul>
 *
 * Used by the cleaner thread only, for one pass.
 */
final class CleanedTransactions {
    private final Map<Long, List<AbortedTransaction>> abortedByProducer = new HashMap<>();
    private final Map<Long, Short> markerOnlyProducers;
    private final Map<Long, Long> previousHorizons;
    private final Map<Long, Long> nextHorizons = new HashMap<>();
    private final long nowMs;
    private final long deleteRetentionMs;
    /** Marker offsets of aborted transactions one of whose batches this pass read. */
    private final Set<Long> abortedWithData = new HashSet<>();
    /** Producers one of whose committed (not aborted) transactional batches this pass read since their last marker. */
    private final Set<Long> committedWithData = new HashSet<>();
    private boolean transactionalDataDropped;
    private long lastReadOffset = -1;

    /**
     * @param aborted             the partition's aborted ranges
     * @param markerOnlyProducers producers whose state holds no data batch, by id, with their epoch
     * @param previousHorizons    marker offset to the time it may go, from the passes before
     */
    CleanedTransactions(List<AbortedTransaction> aborted, Map<Long, Short> markerOnlyProducers,
                        Map<Long, Long> previousHorizons, long nowMs, long deleteRetentionMs) {
        for (AbortedTransaction a : aborted) {
            abortedByProducer.computeIfAbsent(a.producerId(), id -> new ArrayList<>()).add(a);
        }
        this.markerOnlyProducers = markerOnlyProducers;
        this.previousHorizons = previousHorizons;
        this.nowMs = nowMs;
        this.deleteRetentionMs = deleteRetentionMs;
    }

    /** The aborted range of {@code producerId} that holds {@code offset} (data before its marker), or null. */
    AbortedTransaction abortedRangeOf(long producerId, long offset) {
        List<AbortedTransaction> ranges = abortedByProducer.get(producerId);
        if (ranges != null) {
            for (AbortedTransaction a : ranges) {
                if (a.firstOffset() <= offset && offset < a.lastOffset()) {
                    return a;
                }
            }
        }
        return null;
    }

    /** Whether a data batch belongs to an aborted transaction (its records are dropped, never mapped). */
    boolean isAborted(BatchHeader h) {
        return h.isTransactional() && !h.isControl() && abortedRangeOf(h.producerId(), h.baseOffset()) != null;
    }

    /** The pass read a data batch; returns whether it is aborted. */
    boolean onData(BatchHeader h) {
        lastReadOffset = Math.max(lastReadOffset, h.lastOffset());
        if (!h.isTransactional()) {
            return false;
        }
        AbortedTransaction range = abortedRangeOf(h.producerId(), h.baseOffset());
        if (range != null) {
            abortedWithData.add(range.lastOffset());
            return true;
        }
        committedWithData.add(h.producerId());
        return false;
    }

    /** A transactional data batch lost all its records in this pass, so a marker may become removable. */
    void dataDropped() {
        transactionalDataDropped = true;
    }

    /**
     * The pass read a marker of type {@code type}; returns whether it may be removed now. Call for every marker,
     * in offset order, removable or not (it closes the transaction this state follows).
     */
    boolean onMarker(BatchHeader h, short type) {
        long offset = h.baseOffset();
        lastReadOffset = Math.max(lastReadOffset, offset);
        boolean dataRead = type == ControlRecords.ABORT ? abortedWithData.remove(offset)
                : committedWithData.remove(h.producerId());
        if (dataRead) {
            return false;
        }
        Short epoch = markerOnlyProducers.get(h.producerId());
        if (epoch != null && epoch == h.producerEpoch()) {
            return false; // the producer's last word: it carries the epoch that fences its zombies
        }
        Long horizon = previousHorizons.get(offset);
        if (horizon == null) {
            nextHorizons.put(offset, nowMs + deleteRetentionMs);
            return false;
        }
        if (nowMs >= horizon) {
            return true;
        }
        nextHorizons.put(offset, horizon);
        return false;
    }

    /**
     * A removable marker had to stay (the last batch of its segment keeps the segment's end offset): it is never
     * looked at again for removal, so it sets off no further passes.
     */
    void keptAnyway(long markerOffset) {
        nextHorizons.put(markerOffset, Long.MAX_VALUE);
    }

    /** The ABORT range whose marker is at {@code markerOffset}, for a removed marker (null for a COMMIT). */
    AbortedTransaction abortedRangeEndingAt(long producerId, long markerOffset) {
        List<AbortedTransaction> ranges = abortedByProducer.get(producerId);
        if (ranges != null) {
            for (AbortedTransaction a : ranges) {
                if (a.lastOffset() == markerOffset) {
                    return a;
                }
            }
        }
        return null;
    }

    /**
     * The delete horizons of the markers this pass kept, by marker offset, for the next pass, with those of the
     * earlier passes beyond what this pass read.
     */
    Map<Long, Long> horizons() {
        Map<Long, Long> out = new HashMap<>(nextHorizons);
        previousHorizons.forEach((offset, horizon) -> {
            if (offset > lastReadOffset) {
                out.putIfAbsent(offset, horizon);
            }
        });
        return out;
    }

    /**
     * When the next pass has something to do for transactions: at once if this pass removed transactional data
     * (a marker may have lost the last of its data), else at the earliest horizon; Long.MAX_VALUE if neither.
     */
    long nextWorkMs() {
        long next = transactionalDataDropped ? nowMs : Long.MAX_VALUE;
        for (long h : horizons().values()) {
            next = Math.min(next, h);
        }
        return next;
    }
}
