package io.kaas.engine.segments.internal;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Holds the log cleaner's reads and writes, every cleaner thread together, to a rate in bytes per second
 * ({@code cleaner.io.max.bytes.per.second}), as Kafka's cleaner throttler does: the bytes charged are summed over a
 * period that ends after {@link #CHECK_INTERVAL_MS} or once it holds that interval's worth of bytes at the rate
 * (sooner than Kafka's, so a short pass is held too); when a period ends above the rate, the thread that ends it
 * sleeps until the period's bytes fit the rate, and a new period starts. At {@link Double#MAX_VALUE} nothing is counted.
 * The sleep is a timed wait, never an interrupt (an interrupt would close the file channel the cleaner is using), and
 * ends early once {@code stopped} says so.
 */
final class IoThrottle {
    static final long CHECK_INTERVAL_MS = 300;

    private final BooleanSupplier stopped;
    private volatile double bytesPerSecond;
    private long periodStartNanos = System.nanoTime();
    private long periodBytes;

    IoThrottle(double bytesPerSecond, BooleanSupplier stopped) {
        this.bytesPerSecond = bytesPerSecond;
        this.stopped = stopped;
    }

    /** A new rate, from the next period on. */
    synchronized void rate(double bytesPerSecond) {
        this.bytesPerSecond = bytesPerSecond;
        periodStartNanos = System.nanoTime();
        periodBytes = 0;
        notifyAll();
    }

    double rate() {
        return bytesPerSecond;
    }

    /** Counts {@code bytes} read or written by a cleaner, sleeping if the period ends above the rate. */
    void charge(long bytes) {
        if (bytesPerSecond == Double.MAX_VALUE || bytes <= 0) {
            return;
        }
        synchronized (this) {
            periodBytes += bytes;
            long now = System.nanoTime();
            long elapsedNanos = now - periodStartNanos;
            double rate = bytesPerSecond;
            if (elapsedNanos < TimeUnit.MILLISECONDS.toNanos(CHECK_INTERVAL_MS)
                    && periodBytes < rate * CHECK_INTERVAL_MS / 1000) {
                return;
            }
            long neededNanos = (long) Math.min(Long.MAX_VALUE / 2.0, periodBytes / rate * 1e9);
            long deadline = now + Math.max(0, neededNanos - elapsedNanos);
            while (!stopped.getAsBoolean() && rate == bytesPerSecond) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            if (rate == bytesPerSecond) {
                periodStartNanos = System.nanoTime();
                periodBytes = 0;
            }
        }
    }

    /** Wakes a sleeping cleaner (the engine is closing). */
    synchronized void wake() {
        notifyAll();
    }
}
