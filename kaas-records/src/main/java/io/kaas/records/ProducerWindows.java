package io.kaas.records;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.storage.InvalidProducerEpochException;
import io.kaas.api.storage.OutOfOrderSequenceException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The idempotent-producer state of one partition, checked as Kafka checks it: per producer id, its
 * epoch and its last {@value #WINDOW} batches (sequence range and the offsets they were given). A
 * batch is idempotent if it carries a producer id and a base sequence. Not thread-safe: an engine uses
 * it under its partition lock.
 *
 * <p>An append checks and records its batches on a {@link Staged} view and {@link Staged#commit()}s it
 * only once its write succeeded, so a failed write leaves the window as it was.
 */
public final class ProducerWindows {
    /** Kafka's window: the producer may have up to five batches in flight. */
    public static final int WINDOW = 5;

    /** One accepted batch: its sequence range and the offsets it was given. */
    public record Batch(int firstSeq, int lastSeq, long firstOffset, long lastOffset) {
    }

    /**
     * One producer's state: its epoch and its last batches, oldest first, at most {@link #WINDOW}.
     *
     * @param epoch   the producer epoch of those batches
     * @param batches immutable
     */
    public record Producer(short epoch, List<Batch> batches) {
        public Producer {
            batches = List.copyOf(batches.size() > WINDOW ? batches.subList(batches.size() - WINDOW, batches.size())
                    : batches);
        }

        Producer with(Batch batch) {
            List<Batch> next = new ArrayList<>(batches.size() + 1);
            next.addAll(batches);
            next.add(batch);
            return new Producer(epoch, next);
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

    /** Loads a producer's state (from a snapshot or the engine's store), replacing what was known. */
    public void restore(long producerId, Producer producer) {
        producers.put(producerId, producer);
    }

    /** Replays a batch found in the log on recovery, at the offsets its header carries, without checks. */
    public void replay(BatchHeader h) {
        Staged s = stage();
        s.record(h, h.baseOffset());
        s.commit();
    }

    /** A view on which one append checks and records its batches. */
    public Staged stage() {
        return new Staged();
    }

    /** The checks and changes of one append; nothing reaches the window before {@link #commit()}. */
    public final class Staged {
        private final Map<Long, Producer> changed = new LinkedHashMap<>();

        private Producer current(long producerId) {
            Producer p = changed.get(producerId);
            return p != null ? p : producers.get(producerId);
        }

        /**
         * Checks a batch against its producer's window, including the batches this view recorded already.
         *
         * @return the original batch if {@code h} duplicates one of the last {@link #WINDOW}, empty if it
         *         may be appended (or is not idempotent)
         * @throws InvalidProducerEpochException if its epoch is older than the producer's
         * @throws OutOfOrderSequenceException   if its sequence does not follow the producer's last, or a
         *                                       new epoch does not start at sequence 0
         */
        public Optional<Batch> check(BatchHeader h) {
            if (!isIdempotent(h)) {
                return Optional.empty();
            }
            Producer p = current(h.producerId());
            if (p == null) {
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
            if (!p.batches().isEmpty()) {
                int last = p.batches().get(p.batches().size() - 1).lastSeq();
                int expected = last == Integer.MAX_VALUE ? 0 : last + 1;
                if (h.baseSequence() != expected) {
                    throw new OutOfOrderSequenceException("producer " + h.producerId() + " epoch " + h.producerEpoch()
                            + ": expected sequence " + expected + ", got " + h.baseSequence());
                }
            }
            return Optional.empty();
        }

        /** Records an accepted batch written at {@code baseOffset}; a batch that is not idempotent is ignored. */
        public void record(BatchHeader h, long baseOffset) {
            if (!isIdempotent(h)) {
                return;
            }
            Producer p = current(h.producerId());
            if (p == null || p.epoch() != h.producerEpoch()) {
                p = new Producer(h.producerEpoch(), List.of());
            }
            changed.put(h.producerId(), p.with(new Batch(h.baseSequence(), h.lastSequence(), baseOffset,
                    baseOffset + h.lastOffsetDelta())));
        }

        /** The producers this view changed, with their new state (for an engine that persists them with the write). */
        public Map<Long, Producer> changed() {
            return Map.copyOf(changed);
        }

        /** Applies the recorded changes to the window. */
        public void commit() {
            producers.putAll(changed);
        }
    }
}
