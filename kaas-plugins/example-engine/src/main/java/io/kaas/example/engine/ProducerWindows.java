package io.kaas.example.engine;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.storage.InvalidProducerEpochException;
import io.kaas.api.storage.OutOfOrderSequenceException;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Idempotent-producer state of one partition, as Kafka keeps it: per producer id, its epoch and its
 * last {@value #WINDOW} batches. Not thread-safe: used under the partition's lock.
 */
final class ProducerWindows {
    static final int WINDOW = 5;

    /** One accepted batch: its sequence range and the offsets it was given. */
    record Entry(int firstSeq, int lastSeq, long firstOffset, long lastOffset) {
    }

    private record Producer(short epoch, ArrayDeque<Entry> batches) {
    }

    private final Map<Long, Producer> producers = new HashMap<>();

    /**
     * Checks a batch with a producer id against the producer's window.
     *
     * @return the batch's original entry if it is a duplicate, else empty (the batch is next in sequence)
     * @throws InvalidProducerEpochException if the batch's epoch is older than the producer's
     * @throws OutOfOrderSequenceException   if the batch's sequence is not the next one
     */
    Optional<Entry> check(BatchHeader h) {
        Producer p = producers.get(h.producerId());
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
        for (Entry e : p.batches()) {
            if (e.firstSeq() == h.baseSequence() && e.lastSeq() == h.lastSequence()) {
                return Optional.of(e);
            }
        }
        if (!p.batches().isEmpty()) {
            int last = p.batches().peekLast().lastSeq();
            int expected = last == Integer.MAX_VALUE ? 0 : last + 1;
            if (h.baseSequence() != expected) {
                throw new OutOfOrderSequenceException("producer " + h.producerId() + " expected sequence " + expected
                        + ", got " + h.baseSequence());
            }
        }
        return Optional.empty();
    }

    /** Records a batch accepted at {@code baseOffset}. */
    void record(BatchHeader h, long baseOffset) {
        Producer p = producers.get(h.producerId());
        if (p == null || p.epoch() != h.producerEpoch()) {
            p = new Producer(h.producerEpoch(), new ArrayDeque<>());
            producers.put(h.producerId(), p);
        }
        p.batches().addLast(new Entry(h.baseSequence(), h.lastSequence(), baseOffset, baseOffset + h.lastOffsetDelta()));
        while (p.batches().size() > WINDOW) {
            p.batches().removeFirst();
        }
    }
}
