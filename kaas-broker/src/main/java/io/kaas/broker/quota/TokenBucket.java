package io.kaas.broker.quota;

/**
 * A token bucket as Kafka's {@code TokenBucket} stat (KIP-599): it refills at the quota's rate per second up to a
 * burst of {@code samples x window x quota} tokens, and a recorded mutation takes its partitions out, possibly
 * below zero. It starts full. One per controller-mutation quota entity; the caller holds its lock for a check and
 * record that must be atomic.
 */
final class TokenBucket {
    private double tokens = Double.NaN;
    private long lastMs;

    /** The tokens left at {@code nowMs} for a quota of {@code rate} per second and a burst of {@code burst}. */
    synchronized double tokens(double rate, double burst, long nowMs) {
        refill(rate, burst, nowMs);
        return tokens;
    }

    /** Takes {@code permits} tokens out at {@code nowMs}, and answers what is left. */
    synchronized double take(double permits, double rate, double burst, long nowMs) {
        refill(rate, burst, nowMs);
        tokens = Math.min(burst, tokens - permits);
        return tokens;
    }

    private void refill(double rate, double burst, long nowMs) {
        if (Double.isNaN(tokens)) {
            tokens = burst;
        } else {
            tokens = Math.min(burst, tokens + rate * Math.max(0, nowMs - lastMs) / 1000.0);
        }
        lastMs = nowMs;
    }
}
