package io.kaas.coordinator;

import java.time.Clock;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Time for a coordinator: a clock and one-shot delayed tasks (session, rebalance and expiry timeouts).
 * The broker's runs on its scheduler and clock ({@link #of}); tests use a manual implementation.
 */
public interface CoordinatorTimer {

    /** A scheduled task that can be cancelled; cancelling after it ran does nothing. */
    interface Task {
        void cancel();
    }

    long nowMs();

    /** Runs {@code task} once after {@code delayMs}; the task must not block for long. */
    Task schedule(long delayMs, Runnable task);

    /** On the broker's scheduler and clock. */
    static CoordinatorTimer of(ScheduledExecutorService scheduler, Clock clock) {
        return new CoordinatorTimer() {
            @Override
            public long nowMs() {
                return clock.millis();
            }

            @Override
            public Task schedule(long delayMs, Runnable task) {
                ScheduledFuture<?> f = scheduler.schedule(task, Math.max(0, delayMs), TimeUnit.MILLISECONDS);
                return () -> f.cancel(false);
            }
        };
    }
}
