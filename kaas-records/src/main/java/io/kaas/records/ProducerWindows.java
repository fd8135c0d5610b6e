package io.kaas.records;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.ControlRecords;
import io.kaas.api.record.RecordBatches;
import io.kaas.api.storage.InvalidProducerEpochException;
import io.kaas.api.storage.OutOfOrderSequenceException;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.ProducerExpiration;
import io.kaas.api.storage.ProducerState;
import io.kaas.api.storage.TransactionCoordinatorFencedException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The producer state of one partition, checked as Kafka's producer state manager checks it: per producer id,
 * its epoch, its last {@value #WINDOW} batches (sequence range and the offsets they were given), the timestamp
 * of its last batch or marker and the coordinator epoch of its last marker. A batch is idempotent if it
 * carries a producer id and a base sequence. Not thread-safe: an engine uses it under its partition lock.
 *
 * <p>Transaction markers (control batches) skip the sequence checks but not the epochs: a marker whose
 * producer epoch is older than the producer's is {@link InvalidProducerEpochException}, one whose coordinator
 * epoch is older than the last recorded {@link TransactionCoordinatorFencedException}. An accepted marker sets
 * the producer's epoch and coordinator epoch; if it raised the epoch (Transactions V2 bumps it on every end,
 * an abort that fences a zombie too) the batches of the old epoch are forgotten and the next batch must start
 * at sequence 0, as in Kafka.
 *
 * <p>An append checks and records its batches on a {@link Staged} view and {@link Staged#commit()}s it
 * only once its write succeeded, so a failed write leaves the state as it was.
 *
 * <p>Expiration (Kafka's {@code producer.id.expiration.ms}): {@link #expired} lists the producers idle past the
 * horizon with no open transaction, {@link #forget} removes them (an engine that persists producer state deletes
 * them from its store in between); {@link #expire} does both. A forgotten producer that writes again is a new
 * producer, accepted at any sequence.
 */
public final class ProducerWindows {
    /** Kafka's window: the producer may have up to five batches in flight. */
    public static final int WINDOW = 5;
    /** The epoch of a producer the partition has no batch or marker of (Kafka's {@code NO_PRODUCER_EPOCH}). */
    public static final short NO_EPOCH = -1;

    /** One accepted batch: its sequence range and the offsets it was given. */
    public record Batch(int firstSeq, int lastSeq, long firstOffset, long lastOffset) {
    }

    /**
     * One producer's state.
     *
     * @param epoch            the producer epoch of its last batch or marker
     * @param batches          its last batches of that epoch, oldest first, at most {@link #WINDOW}; immutable
     * @param lastTimestamp    the max timestamp of its last batch or the timestamp of its last marker, -1 if unknown
     * @param coordinatorEpoch the coordinator epoch of its last marker, -1 if none
     */
    public record Producer(short epoch, List<Batch> batches, long lastTimestamp, int coordinatorEpoch) {
        public Producer {
            batches = List.copyOf(batches.size() > WINDOW ? batches.subList(batches.size() - WINDOW, batches.size())
                    : batches);
        }

        /** A producer known by its epoch and batches only (no timestamp, no marker yet). */
        public Producer(short epoch, List<Batch> batches) {
            this(epoch, batches, -1L, -1);
        }

        /** The last sequence of its last batch, -1 if none. */
        public int lastSequence() {
            return batches.isEmpty() ? -1 : batches.get(batches.size() - 1).lastSeq();
        }

        Producer with(short batchEpoch, Batch batch, long timestamp) {
            List<Batch> next = new ArrayList<>(batches.size() + 1);
            if (batchEpoch == epoch) {
                next.addAll(batches);
            }
            next.add(batch);
            return new Producer(batchEpoch, next, timestamp, coordinatorEpoch);
        }

        Producer afterMarker(short markerEpoch, int markerCoordinatorEpoch, long timestamp) {
            return new Producer(markerEpoch, markerEpoch == epoch ? batches : List.of(), timestamp, markerCoordinatorEpoch);
        }
    }

    private final Map<Long, Producer> producers = new HashMap<>();

    /**
     * Whether {@code h} takes part in the idempotence checks: it has a producer id and a base sequence and
     * is not a control batch (a transaction marker carries no sequence; Kafka skips the window for it).
     */
    public static boolean isIdempotent(BatchHeader h) {
        return h.hasProducerId() && h.baseSequence() >= 0 && !h.isControl();
    }

    /** The number of producers known. */
    public int size() {
        return producers.size();
    }

    /** A copy of every producer's state, by producer id (for a snapshot or for persistence). */
    public Map<Long, Producer> producers() {
        return Map.copyOf(producers);
    }

    /**
     * Every producer's state as {@link PartitionLog#producers()} reports it, in producer-id order, with the
     * first offset of its open transaction from {@code openTransactions} (producer id to first offset, as
     * {@link TransactionTracker#openTransactions()} gives it).
     */
    public List<ProducerState> states(Map<Long, Long> openTransactions) {
        TreeMap<Long, ProducerState> out = new TreeMap<>();
        for (Map.Entry<Long, Producer> e : producers.entrySet()) {
            Producer p = e.getValue();
            out.put(e.getKey(), new ProducerState(e.getKey(), p.epoch(), p.lastSequence(), p.lastTimestamp(),
                    p.coordinatorEpoch(), openTransactions.getOrDefault(e.getKey(), -1L)));
        }
        for (Map.Entry<Long, Long> e : openTransactions.entrySet()) {
            out.computeIfAbsent(e.getKey(), id -> new ProducerState(id, NO_EPOCH, -1, -1L, -1, e.getValue()));
        }
        return List.copyOf(out.values());
    }

    /**
     * The producers expired at {@code nowMs}, in producer-id order: those whose last timestamp is at least
     * {@link ProducerExpiration#expirationMs()} old ({@link ProducerExpiration#isExpired}) and that have no
     * transaction open in {@code transactions}, as Kafka's {@code ProducerStateManager.removeExpiredProducers}
     * decides. Changes nothing.
     */
    public List<Long> expired(long nowMs, ProducerExpiration expiration, TransactionTracker transactions) {
        List<Long> out = new ArrayList<>();
        for (Map.Entry<Long, Producer> e : producers.entrySet()) {
            if (expiration.isExpired(e.getValue().lastTimestamp(), nowMs) && !transactions.isOpen(e.getKey())) {
                out.add(e.getKey());
            }
        }
        out.sort(null);
        return out;
    }

    /** Removes the state of these producers (after {@link #expired}); their next batch starts them afresh. */
    public void forget(Collection<Long> producerIds) {
        producerIds.forEach(producers::remove);
    }

    /**
     * {@link #expired} then {@link #forget}, for an engine that persists nothing or persists the whole state
     * afterwards (a snapshot).
     *
     * @return the producer ids removed, in order
     */
    public List<Long> expire(long nowMs, ProducerExpiration expiration, TransactionTracker transactions) {
        List<Long> expired = expired(nowMs, expiration, transactions);
        forget(expired);
        return expired;
    }

    /** Producer ids for a log line: all of them up to ten, else the first ten and how many more. */
    public static String describe(List<Long> producerIds) {
        if (producerIds.size() <= 10) {
            return producerIds.toString();
        }
        return producerIds.subList(0, 10) + " and " + (producerIds.size() - 10) + " more";
    }

    /** Loads a producer's state (from a snapshot or the engine's store), replacing what was known. */
    public void restore(long producerId, Producer producer) {
        producers.put(producerId, producer);
    }

    /**
     * Replays a batch found in the log on recovery, at the offsets its header carries, without checks;
     * {@code batch} holds it (position 0 its first byte) and is needed for a control batch only (else may be null).
     */
    public void replay(BatchHeader h, ByteBuffer batch) {
        Staged s = stage();
        s.record(h, h.baseOffset(), batch);
        s.commit();
    }

    /** A view on which one append checks and records its batches. */
    public Staged stage() {
        return new Staged();
    }

    /** The checks and changes of one append; nothing reaches the state before {@link #commit()}. */
    public final class Staged {
        private final Map<Long, Producer> changed = new LinkedHashMap<>();

        private Producer current(long producerId) {
            Producer p = changed.get(producerId);
            return p != null ? p : producers.get(producerId);
        }

        /** {@link #check(BatchHeader, ByteBuffer)} of a data batch, whose bytes it does not need. */
        public Optional<Batch> check(BatchHeader h) {
            return check(h, null);
        }

        /**
         * Checks a batch against its producer's state, including the batches this view recorded already.
         *
         * @param batch the batch's bytes (position 0 its first byte); read for a control batch only, may be null
         *              for any other
         * @return the original batch if {@code h} duplicates one of the last {@link #WINDOW}, empty if it
         *         may be appended (or is not idempotent)
         * @throws InvalidProducerEpochException if its epoch is older than the producer's
         * @throws OutOfOrderSequenceException   if its sequence does not follow the producer's last, or a
         *                                       new epoch (or the first batch after a marker that raised the
         *                                       epoch) does not start at sequence 0
         * @throws TransactionCoordinatorFencedException if a marker's coordinator epoch is older than the
         *                                       producer's last
         * @throws io.kaas.api.record.CorruptBatchException if a control batch's marker is malformed
         */
        public Optional<Batch> check(BatchHeader h, ByteBuffer batch) {
            if (h.isControl()) {
                if (h.hasProducerId()) {
                    checkMarker(h, marker(h, batch));
                }
                return Optional.empty();
            }
            if (!isIdempotent(h)) {
                return Optional.empty();
            }
            Producer p = current(h.producerId());
            if (p == null || p.epoch() == NO_EPOCH) {
                return Optional.empty(); // an unknown producer may start at any sequence, as in Kafka
            }
            if (h.producerEpoch() < p.epoch()) {
                throw new InvalidProducerEpochException("producer " + h.producerId() + " epoch " + h.producerEpoch()
                        + " is older than the current epoch " + p.epoch());
            }
            if (h.producerEpoch() > p.epoch()) {
                if (h.baseSequence() != 0) {
                    throw new OutOfOrderSequenceException("producer " + h.producerId() + " new epoch " + h.producerEpoch()
                            + " must start at sequence 0, got " + h.baseSequence());
                }
                return Optional.empty();
            }
            for (Batch b : p.batches()) {
                if (b.firstSeq() == h.baseSequence() && b.lastSeq() == h.lastSequence()) {
                    return Optional.of(b);
                }
            }
            int last = p.lastSequence(); // -1 after a marker that raised the epoch: the next batch starts at 0
            int expected = last == Integer.MAX_VALUE ? 0 : last + 1;
            if (h.baseSequence() != expected) {
                throw new OutOfOrderSequenceException("producer " + h.producerId() + " epoch " + h.producerEpoch()
                        + ": expected sequence " + expected + ", got " + h.baseSequence());
            }
            return Optional.empty();
        }

        private void checkMarker(BatchHeader h, ControlRecords.Marker marker) {
            Producer p = current(h.producerId());
            if (p == null) {
                return;
            }
            if (h.producerEpoch() < p.epoch()) {
                throw new InvalidProducerEpochException("transaction marker of producer " + h.producerId() + " epoch "
                        + h.producerEpoch() + " is older than the current epoch " + p.epoch());
            }
            if (marker.coordinatorEpoch() < p.coordinatorEpoch()) {
                throw new TransactionCoordinatorFencedException("transaction marker of producer " + h.producerId()
                        + " has coordinator epoch " + marker.coordinatorEpoch() + " (zombie), older than the current "
                        + p.coordinatorEpoch());
            }
        }

        /** {@link #record(BatchHeader, long, ByteBuffer)} of a data batch, whose bytes it does not need. */
        public void record(BatchHeader h, long baseOffset) {
            record(h, baseOffset, null);
        }

        /**
         * Records an accepted batch written at {@code baseOffset}: a data batch joins its producer's window, a
         * marker sets the producer's epoch and coordinator epoch. A batch of no producer is ignored.
         *
         * @param batch the batch's bytes as written (position 0 its first byte), for a control batch's marker and
         *              the last timestamp (a log-append time stamped in it); may be null for a data batch (the
         *              header's max timestamp is taken)
         */
        public void record(BatchHeader h, long baseOffset, ByteBuffer batch) {
            long timestamp = batch != null ? batch.getLong(RecordBatches.MAX_TIMESTAMP) : h.maxTimestamp();
            if (h.isControl()) {
                if (h.hasProducerId()) {
                    ControlRecords.Marker marker = marker(h, batch);
                    Producer p = current(h.producerId());
                    Producer base = p != null ? p : new Producer(NO_EPOCH, List.of());
                    changed.put(h.producerId(), base.afterMarker(h.producerEpoch(), marker.coordinatorEpoch(), timestamp));
                }
                return;
            }
            if (!isIdempotent(h)) {
                return;
            }
            Producer p = current(h.producerId());
            if (p == null) {
                p = new Producer(h.producerEpoch(), List.of());
            }
            changed.put(h.producerId(), p.with(h.producerEpoch(), new Batch(h.baseSequence(), h.lastSequence(), baseOffset,
                    baseOffset + h.lastOffsetDelta()), timestamp));
        }

        /** The producers this view changed, with their new state (for an engine that persists them with the write). */
        public Map<Long, Producer> changed() {
            return Map.copyOf(changed);
        }

        /** Applies the recorded changes to the state. */
        public void commit() {
            producers.putAll(changed);
        }
    }

    private static ControlRecords.Marker marker(BatchHeader h, ByteBuffer batch) {
        if (batch == null) {
            throw new IllegalArgumentException("the control batch of producer " + h.producerId()
                    + " must be passed with its bytes");
        }
        return ControlRecords.marker(batch, 0, h);
    }
}
