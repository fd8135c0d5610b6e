package io.kaas.engine.segments.internal;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.storage.InvalidProducerEpochException;
import io.kaas.api.storage.OutOfOrderSequenceException;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The idempotence window of one partition: per producer id, its epoch and its last
 * {@link #WINDOW} batches. Not thread-safe: used under the partition lock only. Changes made while
 * checking a request go to a {@link Staged} copy that is committed only after the write succeeded.
 */
final class ProducerStateTable {
    static final int WINDOW = 5;

    /** Sequence and offset range of one appended batch. */
    record BatchMeta(int firstSeq, int lastSeq, long baseOffset, long lastOffset) {
    }

    private static final class Entry {
        final short epoch;
        final ArrayDeque<BatchMeta> batches = new ArrayDeque<>(WINDOW);

        Entry(short epoch) {
            this.epoch = epoch;
        }

        Entry copy() {
            Entry e = new Entry(epoch);
            e.batches.addAll(batches);
            return e;
        }
    }

    private final Map<Long, Entry> producers = new HashMap<>();

    int size() {
        return producers.size();
    }

    /** One producer's state, as a snapshot holds it. */
    record ProducerEntry(long producerId, short epoch, java.util.List<BatchMeta> batches) {
    }

    /** Every producer's state (for a snapshot); call under the partition lock. */
    java.util.List<ProducerEntry> entries() {
        java.util.List<ProducerEntry> out = new java.util.ArrayList<>(producers.size());
        producers.forEach((id, e) -> out.add(new ProducerEntry(id, e.epoch, java.util.List.copyOf(e.batches))));
        return out;
    }

    /** Loads a producer's state from a snapshot (before any replay). */
    void restore(ProducerEntry entry) {
        Entry e = new Entry(entry.epoch());
        for (BatchMeta m : entry.batches()) {
            if (e.batches.size() == WINDOW) {
                e.batches.removeFirst();
            }
            e.batches.addLast(m);
        }
        producers.put(entry.producerId(), e);
    }

    /** Replays a batch found in the log on recovery, without checks. */
    void replay(BatchHeader h) {
        Staged s = stage();
        s.record(h, h.baseOffset(), h.lastOffset());
        s.commit();
    }

    Staged stage() {
        return new Staged();
    }

    private static boolean isIdempotent(BatchHeader h) {
        return h.hasProducerId() && h.baseSequence() >= 0;
    }

    /** Checks and records the batches of one request against a private copy of the touched entries. */
    final class Staged {
        private final Map<Long, Entry> touched = new HashMap<>();

        private Entry entry(long producerId) {
            Entry e = touched.get(producerId);
            if (e == null && !touched.containsKey(producerId)) {
                Entry base = producers.get(producerId);
                e = base == null ? null : base.copy();
                touched.put(producerId, e);
            }
            return e;
        }

        /**
         * Returns the original batch if {@code h} duplicates one of the last {@link #WINDOW}, empty if it
         * may be appended.
         *
         * @throws InvalidProducerEpochException if its epoch is older than the producer's
         * @throws OutOfOrderSequenceException   if its sequence does not follow the producer's last
         */
        Optional<BatchMeta> check(BatchHeader h) {
            if (!isIdempotent(h)) {
                return Optional.empty();
            }
            Entry e = entry(h.producerId());
            if (e == null) {
                return Optional.empty();
            }
            if (h.producerEpoch() < e.epoch) {
                throw new InvalidProducerEpochException("producer " + h.producerId() + " epoch " + h.producerEpoch()
                        + " is older than the current epoch " + e.epoch);
            }
            if (h.producerEpoch() > e.epoch) {
                if (h.baseSequence() != 0) {
                    throw new OutOfOrderSequenceException("producer " + h.producerId() + " new epoch " + h.producerEpoch()
                            + " must start at sequence 0, got " + h.baseSequence());
                }
                return Optional.empty();
            }
            for (BatchMeta m : e.batches) {
                if (m.firstSeq() == h.baseSequence() && m.lastSeq() == h.lastSequence()) {
                    return Optional.of(m);
                }
            }
            BatchMeta last = e.batches.peekLast();
            if (last == null) {
                return Optional.empty();
            }
            int expected = last.lastSeq() == Integer.MAX_VALUE ? 0 : last.lastSeq() + 1;
            if (h.baseSequence() != expected) {
                throw new OutOfOrderSequenceException("producer " + h.producerId() + " epoch " + h.producerEpoch()
                        + ": expected sequence " + expected + ", got " + h.baseSequence());
            }
            return Optional.empty();
        }

        /** Records an accepted batch at its assigned offsets. */
        void record(BatchHeader h, long baseOffset, long lastOffset) {
            if (!isIdempotent(h)) {
                return;
            }
            Entry e = entry(h.producerId());
            if (e == null || e.epoch != h.producerEpoch()) {
                e = new Entry(h.producerEpoch());
                touched.put(h.producerId(), e);
            }
            if (e.batches.size() == WINDOW) {
                e.batches.removeFirst();
            }
            e.batches.addLast(new BatchMeta(h.baseSequence(), h.lastSequence(), baseOffset, lastOffset));
        }

        /** Applies the staged changes to the table. */
        void commit() {
            touched.forEach((id, e) -> {
                if (e != null) {
                    producers.put(id, e);
                }
            });
        }
    }
}
