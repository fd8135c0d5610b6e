package io.kaas.broker.transaction;

import io.kaas.api.storage.PartitionKey;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Kafka's verification guard (KIP-890 part 1) for this broker: a transactional batch verified with the coordinator
 * is appended only if no marker of its producer reached the partition since the verification began. Without it, a
 * batch verified just before its transaction's marker could land after the marker and open a transaction no
 * coordinator knows, holding the last stable offset forever. A marker and a guarded append of the same partition
 * and producer are serialized (a short lock around the engine's append, which returns once the batch is placed).
 * Thread-safe.
 */
public final class VerificationGuards {
    /** A marker older than this cannot matter to a verification in flight (they take milliseconds). */
    static final long FORGET_AFTER_MS = 120_000;
    private static final int STRIPES = 64;
    private static final int PRUNE_ABOVE = 4096;

    private record Key(PartitionKey partition, long producerId) {
    }

    private record Marked(long sequence, long atMs) {
    }

    private final AtomicLong sequence = new AtomicLong();
    private final ConcurrentHashMap<Key, Marked> lastMarker = new ConcurrentHashMap<>();
    private final Object[] stripes = new Object[STRIPES];

    public VerificationGuards() {
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new Object();
        }
    }

    /** A guard, taken before a transactional batch is verified with the coordinator. */
    public long begin() {
        return sequence.get();
    }

    /**
     * Runs {@code append} unless a marker of {@code producerId} was appended to {@code partition} since
     * {@code guard} was taken.
     *
     * @return whether it ran
     */
    public boolean appendIfNoMarkerSince(PartitionKey partition, long producerId, long guard, Runnable append) {
        Key key = new Key(partition, producerId);
        synchronized (stripe(key)) {
            Marked m = lastMarker.get(key);
            if (m != null && m.sequence() > guard) {
                return false;
            }
            append.run();
            return true;
        }
    }

    /** Appends a marker of {@code producerId} to {@code partition} ({@code append}), invalidating older guards. */
    public <T> T marker(PartitionKey partition, long producerId, long nowMs, Supplier<T> append) {
        Key key = new Key(partition, producerId);
        T result;
        synchronized (stripe(key)) {
            lastMarker.put(key, new Marked(sequence.incrementAndGet(), nowMs));
            result = append.get();
        }
        if (lastMarker.size() > PRUNE_ABOVE) {
            lastMarker.values().removeIf(m -> nowMs - m.atMs() > FORGET_AFTER_MS);
        }
        return result;
    }

    private Object stripe(Key key) {
        return stripes[Math.floorMod(key.hashCode(), STRIPES)];
    }
}
