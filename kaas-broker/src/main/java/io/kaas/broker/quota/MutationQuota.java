package io.kaas.broker.quota;

import java.util.function.LongSupplier;

/**
 * One request's view of its {@code controller_mutation_rate} quota (KIP-599), as Kafka's controller mutation
 * quotas: the partitions a CreateTopics, CreatePartitions or DeleteTopics request creates or deletes are taken out
 * of the entity's token bucket, topic by topic.
 * <ul>
 *   <li><b>strict</b> (CreateTopics v6+, CreatePartitions v3+, DeleteTopics v5+): a topic is refused (the caller
 *   answers THROTTLING_QUOTA_EXCEEDED) while the bucket is below zero; a topic taking it below zero is still
 *   accepted;</li>
 *   <li><b>permissive</b> (older versions, whose clients do not know the error): every topic is accepted, and the
 *   request is throttled once the bucket is below zero.</li>
 * </ul>
 * The throttle time is the time the bucket needs to refill to zero, less the time since it was measured.
 * Not thread-safe: one request uses it on one thread.
 */
public final class MutationQuota {
    /** No quota applies. */
    public static final MutationQuota UNBOUNDED = new MutationQuota(null, 0, 0, false, () -> 0);

    private final TokenBucket bucket;
    private final double rate;
    private final double burst;
    private final boolean strict;
    private final LongSupplier clock;
    private long throttleMs;
    private long measuredMs;

    MutationQuota(TokenBucket bucket, double rate, double burst, boolean strict, LongSupplier clock) {
        this.bucket = bucket;
        this.rate = rate;
        this.burst = burst;
        this.strict = strict;
        this.clock = clock;
    }

    /**
     * Charges {@code partitions} created or deleted. False when a strict quota refuses them (nothing is charged);
     * a permissive quota always accepts.
     */
    public boolean tryCharge(int partitions) {
        if (bucket == null) {
            return true;
        }
        long now = clock.getAsLong();
        double left;
        synchronized (bucket) {
            if (strict) {
                double before = bucket.tokens(rate, burst, now);
                if (before < 0) {
                    throttled(before, now);
                    return false;
                }
            }
            left = bucket.take(partitions, rate, burst, now);
        }
        if (!strict && left < 0) {
            throttled(left, now);
        }
        return true;
    }

    /** The time in ms the client is to wait before its next mutation: 0 unless this request met an empty bucket. */
    public int throttleTimeMs() {
        if (throttleMs == 0) {
            return 0;
        }
        long elapsed = clock.getAsLong() - measuredMs;
        return (int) Math.min(Integer.MAX_VALUE, Math.max(0, throttleMs - elapsed));
    }

    private void throttled(double tokens, long now) {
        throttleMs = Math.round(-tokens / rate * 1000);
        measuredMs = now;
    }
}
