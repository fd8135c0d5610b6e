package io.kaas.broker.group;

import java.time.Clock;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/** Time for the coordinator: a clock and one-shot delayed tasks. Tests use a manual implementation. */
public interface GroupTimer {

    /** A scheduled task that can be cancelled; cancelling after it ran does nothing. */
    interface Task {
        void cancel();
    }

    long nowMs();

    /** Runs {@code task} once after {@code delayMs}; the task must not block for long. */
    Task schedule(long delayMs, Runnable task);

    /** On the broker's scheduler and clock. */
    static GroupTimer of(ScheduledExecutorService scheduler, Clock clock) {
        return new GroupTimer() {
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
