package io.kaas.engine.rocksdb.internal;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.storage.InvalidProducerEpochException;
import io.kaas.api.storage.OutOfOrderSequenceException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Idempotent-producer state of one partition: per producer id, the epoch and the last
 * {@value #WINDOW} batches (sequence range and offsets), checked as Kafka checks them. Not
 * thread-safe: used under the partition's lock. Changes are staged ({@link #stage()}) and applied
 * only once the append that made them is written.
 */
final class ProducerStates {
    static final int WINDOW = 5;

    record Entry(int firstSeq, int lastSeq, long firstOffset, long lastOffset) {
    }

    static final class Producer {
        final short epoch;
        final ArrayDeque<Entry> batches;

        Producer(short epoch, ArrayDeque<Entry> batches) {
            this.epoch = epoch;
            this.batches = batches;
        }

        Producer copy() {
            return new Producer(epoch, new ArrayDeque<>(batches));
        }

        byte[] encode() {
            ByteBuffer b = ByteBuffer.allocate(3 + batches.size() * 24).putShort(epoch).put((byte) batches.size());
            for (Entry e : batches) {
                b.putInt(e.firstSeq()).putInt(e.lastSeq()).putLong(e.firstOffset()).putLong(e.lastOffset());
            }
            return b.array();
        }

        static Producer decode(byte[] value) {
            ByteBuffer b = ByteBuffer.wrap(value);
            short epoch = b.getShort();
            int n = b.get();
            ArrayDeque<Entry> batches = new ArrayDeque<>();
            for (int i = 0; i < n; i++) {
                batches.add(new Entry(b.getInt(), b.getInt(), b.getLong(), b.getLong()));
            }
            return new Producer(epoch, batches);
        }
    }

    private final Map<Long, Producer> producers = new HashMap<>();

    void load(long producerId, Producer producer) {
        producers.put(producerId, producer);
    }

    Staged stage() {
        return new Staged();
    }

    /** The changes of one append; {@link #commit()} applies them. */
    final class Staged {
        final Map<Long, Producer> changed = new HashMap<>();

        private Producer current(long producerId) {
            Producer p = changed.get(producerId);
            return p != null ? p : producers.get(producerId);
        }

        /**
         * Checks a batch against its producer's state.
         *
         * @return the original entry if the batch is a duplicate, otherwise empty
         */
        Optional<Entry> check(BatchHeader h) {
            Producer p = current(h.producerId());
            if (p == null) {
                return Optional.empty(); // an unknown producer may start at any sequence, as in Kafka
            }
            if (h.producerEpoch() < p.epoch) {
                throw new InvalidProducerEpochException("producer " + h.producerId() + " epoch " + h.producerEpoch()
                        + " is older than the current epoch " + p.epoch);
            }
            if (h.producerEpoch() > p.epoch) {
                if (h.baseSequence() != 0) {
                    throw new OutOfOrderSequenceException("producer " + h.producerId() + " new epoch " + h.producerEpoch()
                            + " must start at sequence 0, got " + h.baseSequence());
                }
                return Optional.empty();
            }
            for (Entry e : p.batches) {
                if (e.firstSeq() == h.baseSequence() && e.lastSeq() == h.lastSequence()) {
                    return Optional.of(e);
                }
            }
            if (!p.batches.isEmpty()) {
                int last = p.batches.peekLast().lastSeq();
                int expected = last == Integer.MAX_VALUE ? 0 : last + 1;
                if (h.baseSequence() != expected) {
                    throw new OutOfOrderSequenceException("producer " + h.producerId() + " expected sequence " + expected
                            + ", got " + h.baseSequence());
                }
            }
            return Optional.empty();
        }

        /** Records an accepted batch written at {@code baseOffset}. */
        void record(BatchHeader h, long baseOffset) {
            Producer p = current(h.producerId());
            Producer next = p == null || h.producerEpoch() != p.epoch
                    ? new Producer(h.producerEpoch(), new ArrayDeque<>())
                    : p.copy();
            next.batches.addLast(new Entry(h.baseSequence(), h.lastSequence(), baseOffset, baseOffset + h.lastOffsetDelta()));
            while (next.batches.size() > WINDOW) {
                next.batches.removeFirst();
            }
            changed.put(h.producerId(), next);
        }

        void commit() {
            producers.putAll(changed);
        }
    }
}
