package io.kaas.broker.quota;

/**
 * A rate over {@code samples} windows of {@code windowMs}, measured as Kafka's {@code Rate} over a
 * {@code SampledStat} does: the sum of the live samples over the elapsed time since the oldest one started, that
 * time never counted as less than {@code samples - 1} full windows. One per quota entity and quota type; its lock
 * is taken only by requests of entities that have a quota.
 */
final class RateSensor {
    private final long windowMs;
    private final double[] values;
    private final long[] starts;
    private int current;

    RateSensor(int samples, long windowMs, long nowMs) {
        this.windowMs = windowMs;
        this.values = new double[samples];
        this.starts = new long[samples];
        for (int i = 0; i < samples; i++) {
            starts[i] = nowMs;
        }
    }

    /**
     * Records {@code value} at {@code nowMs} and answers the throttle time Kafka's quota check gives when the
     * rate then exceeds {@code bound}: {@code (rate - bound) / bound * windowSize}, else 0.
     */
    synchronized long recordAndThrottleMs(double value, double bound, long nowMs) {
        if (nowMs - starts[current] >= windowMs) {
            current = (current + 1) % values.length;
            starts[current] = nowMs;
            values[current] = 0;
        }
        values[current] += value;
        double rate = rate(nowMs);
        if (rate <= bound) {
            return 0;
        }
        return Math.round((rate - bound) / bound * windowSizeMs(nowMs));
    }

    /** Adds {@code value} (negative to take back a recorded one) at {@code nowMs}, without a quota check. */
    synchronized void add(double value, long nowMs) {
        if (nowMs - starts[current] >= windowMs) {
            current = (current + 1) % values.length;
            starts[current] = nowMs;
            values[current] = 0;
        }
        values[current] += value;
    }

    /** The rate per second at {@code nowMs}. */
    synchronized double rate(long nowMs) {
        purgeObsolete(nowMs);
        double total = 0;
        for (double v : values) {
            total += v;
        }
        return total / (windowSizeMs(nowMs) / 1000.0);
    }

    private void purgeObsolete(long nowMs) {
        long expireAge = values.length * windowMs;
        for (int i = 0; i < values.length; i++) {
            if (nowMs - starts[i] >= expireAge) {
                starts[i] = nowMs;
                values[i] = 0;
            }
        }
    }

    private long windowSizeMs(long nowMs) {
        long oldest = starts[current];
        for (long s : starts) {
            oldest = Math.min(oldest, s);
        }
        long elapsed = nowMs - oldest;
        long fullWindows = elapsed / windowMs;
        long minFull = values.length - 1;
        if (fullWindows < minFull) {
            elapsed += (minFull - fullWindows) * windowMs;
        }
        return Math.max(elapsed, 1);
    }
}
