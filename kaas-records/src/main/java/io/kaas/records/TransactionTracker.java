package io.kaas.records;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.ControlRecords;
import io.kaas.api.storage.AbortedTransaction;
import io.kaas.api.storage.InvalidTxnStateException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The transaction state of one partition, kept as Kafka's producer state manager keeps it: per producer id
 * the first offset of its open transaction, and the aborted ranges. A transactional data batch of a producer
 * with no open transaction opens one at its base offset; a control batch of that producer closes it; an
 * ABORT marker records {@code (producerId, firstOffset, markerOffset)}. A marker of a producer with no open
 * transaction (it wrote no data to this partition) changes nothing and records no range: Kafka's producer state
 * manager emits a completed transaction for non-empty transactions only, so its transaction index holds none.
 *
 * <p>Changes go through a {@link Staged} view, committed once the write succeeded, so a failed write leaves
 * the state as it was. Writers use it under their partition lock; {@link #aborted} may be called from any
 * thread (the aborted list is an immutable snapshot replaced on commit).
 */
public final class TransactionTracker {
    private final Map<Long, Long> open = new HashMap<>();
    private volatile List<AbortedTransaction> aborted = List.of();

    /** One change to the state: an opened or closed transaction, and maybe an aborted range. */
    public record Change(long producerId, long openedAt, AbortedTransaction aborted) {
        /** Whether it closed the producer's transaction (else it opened one at {@link #openedAt}). */
        public boolean closed() {
            return openedAt < 0;
        }
    }

    /**
     * Whether {@link Staged#record} must see {@code h}: it has a producer id (a transactional batch or marker
     * changes the state; any other batch of a producer is checked against its open transaction). An engine may
     * skip {@link Staged#record} for the others (it ignores them).
     */
    public static boolean concerns(BatchHeader h) {
        return h.hasProducerId();
    }

    /** A view on which one append records its batches. */
    public Staged stage() {
        return new Staged(true);
    }

    /** Replays a batch found in the log on recovery, at the offset its header carries, without checks. */
    public void replay(BatchHeader h, ByteBuffer batch) {
        Staged s = new Staged(false);
        s.record(h, h.baseOffset(), batch);
        s.commit();
    }

    /** The last stable offset: the first offset of the oldest open transaction, else {@code highWatermark}. */
    public long lastStableOffset(long highWatermark) {
        long lso = highWatermark;
        for (long first : open.values()) {
            lso = Math.min(lso, first);
        }
        return lso;
    }

    /**
     * The aborted ranges with data in [{@code fromOffset}, {@code toOffset}), by marker offset. The ranges that end
     * before {@code fromOffset} are skipped by a binary search (they are sorted by marker offset), so a fetch near
     * the log end does not walk every older abort.
     */
    public List<AbortedTransaction> aborted(long fromOffset, long toOffset) {
        List<AbortedTransaction> ranges = aborted;
        int lo = 0;
        int hi = ranges.size();
        while (lo < hi) { // the first range whose marker is at or after fromOffset
            int mid = (lo + hi) >>> 1;
            if (ranges.get(mid).lastOffset() < fromOffset) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        List<AbortedTransaction> out = new ArrayList<>();
        for (int i = lo; i < ranges.size(); i++) {
            AbortedTransaction a = ranges.get(i);
            if (a.overlaps(fromOffset, toOffset)) {
                out.add(a);
            }
        }
        return out;
    }

    /** Every aborted range kept, by marker offset (for persistence). */
    public List<AbortedTransaction> abortedTransactions() {
        return aborted;
    }

    /** Whether {@code producerId} has a transaction open on the partition. */
    public boolean isOpen(long producerId) {
        return open.containsKey(producerId);
    }

    /** The open transactions: producer id to first offset (for persistence). */
    public Map<Long, Long> openTransactions() {
        return Map.copyOf(open);
    }

    /** Loads the state (from a snapshot or the engine's store), replacing what was known. */
    public void restore(Map<Long, Long> openTransactions, List<AbortedTransaction> abortedTransactions) {
        open.clear();
        open.putAll(openTransactions);
        List<AbortedTransaction> sorted = new ArrayList<>(abortedTransactions);
        sorted.sort((a, b) -> Long.compare(a.lastOffset(), b.lastOffset()));
        aborted = List.copyOf(sorted);
    }

    /**
     * Drops the aborted ranges wholly below {@code logStartOffset} (retention, DeleteRecords).
     *
     * @return the dropped ranges
     */
    public List<AbortedTransaction> dropBelow(long logStartOffset) {
        List<AbortedTransaction> kept = new ArrayList<>();
        List<AbortedTransaction> dropped = new ArrayList<>();
        for (AbortedTransaction a : aborted) {
            (a.lastOffset() < logStartOffset ? dropped : kept).add(a);
        }
        if (!dropped.isEmpty()) {
            aborted = List.copyOf(kept);
        }
        return dropped;
    }

    /**
     * Forgets aborted ranges whose ABORT marker compaction removed (their data went before), so no read_committed
     * fetch is told of a range whose marker it will never see.
     */
    public void forget(java.util.Collection<AbortedTransaction> removed) {
        if (removed.isEmpty()) {
            return;
        }
        List<AbortedTransaction> kept = new ArrayList<>(aborted);
        if (kept.removeAll(removed)) {
            aborted = List.copyOf(kept);
        }
    }

    /** The changes of one append; nothing reaches the state before {@link #commit()}. */
    public final class Staged {
        private final boolean checked;
        // allocated on the first change: most appends carry no transaction
        private Map<Long, Long> changedOpen = Map.of();
        private List<Change> changes = List.of();
        private List<AbortedTransaction> newAborted = List.of();

        private Staged(boolean checked) {
            this.checked = checked;
        }

        private Long currentOpen(long producerId) {
            return changedOpen.containsKey(producerId) ? changedOpen.get(producerId) : open.get(producerId);
        }

        private void change(long producerId, Long openedAt, AbortedTransaction abort) {
            if (changes.isEmpty()) {
                changedOpen = new LinkedHashMap<>();
                changes = new ArrayList<>();
                newAborted = new ArrayList<>();
            }
            changedOpen.put(producerId, openedAt);
            changes.add(new Change(producerId, openedAt == null ? -1 : openedAt, abort));
            if (abort != null) {
                newAborted.add(abort);
            }
        }

        /**
         * Records a batch written at {@code baseOffset}; {@code batch} holds it (position 0 its first byte)
         * and is read for a control batch's type only (it may be null for any other batch). Batches that do not
         * {@link #concerns concern} transactions are ignored.
         *
         * @throws io.kaas.api.record.CorruptBatchException if a control batch's key is malformed
         * @throws InvalidTxnStateException if it is a data batch that is not transactional and its producer has a
         *         transaction open (Kafka's "Expected transactional write"); the view is left unchanged
         */
        public void record(BatchHeader h, long baseOffset, ByteBuffer batch) {
            if (!concerns(h)) {
                return;
            }
            long pid = h.producerId();
            Long first = currentOpen(pid);
            if (!h.isControl() && !h.isTransactional()) {
                if (first != null && checked) {
                    throw new InvalidTxnStateException("expected a transactional write from producer " + pid
                            + ", which has a transaction open since offset " + first + ", at offset " + baseOffset);
                }
                return;
            }
            if (h.isControl()) {
                short type = ControlRecords.type(batch, 0, h);
                if (first != null) {
                    change(pid, null, type == ControlRecords.ABORT ? new AbortedTransaction(pid, first, baseOffset) : null);
                }
            } else if (first == null) {
                change(pid, baseOffset, null);
            }
        }

        /** The last stable offset once this view is committed, with the log at {@code highWatermark}. */
        public long lastStableOffset(long highWatermark) {
            long lso = highWatermark;
            for (Map.Entry<Long, Long> e : open.entrySet()) {
                if (!changedOpen.containsKey(e.getKey())) {
                    lso = Math.min(lso, e.getValue());
                }
            }
            for (Long first : changedOpen.values()) {
                if (first != null) {
                    lso = Math.min(lso, first);
                }
            }
            return lso;
        }

        /** What this view changed, in order (for an engine that persists them with the write). */
        public List<Change> changes() {
            return List.copyOf(changes);
        }

        /** Applies the recorded changes. */
        public void commit() {
            for (Map.Entry<Long, Long> e : changedOpen.entrySet()) {
                if (e.getValue() == null) {
                    open.remove(e.getKey());
                } else {
                    open.put(e.getKey(), e.getValue());
                }
            }
            if (!newAborted.isEmpty()) {
                List<AbortedTransaction> next = new ArrayList<>(aborted);
                next.addAll(newAborted);
                aborted = List.copyOf(next);
            }
        }
    }
}
