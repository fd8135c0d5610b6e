package io.kaas.coordinator.transaction;

import io.kaas.coordinator.CoordinatorTimer;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A {@link CoordinatorTimer} with a manual clock: tasks due now run at once on one worker thread; delayed tasks run
 * (on that thread, in order) when a test moves the clock past them with {@link #advance}. Thread-safe.
 */
final class TestTimer implements CoordinatorTimer, AutoCloseable {
    private record Entry(long dueMs, long seq, Runnable task, boolean[] cancelled) {
    }

    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "test-timer");
        t.setDaemon(true);
        return t;
    });
    private final PriorityQueue<Entry> queue = new PriorityQueue<>((a, b) -> a.dueMs != b.dueMs
            ? Long.compare(a.dueMs, b.dueMs) : Long.compare(a.seq, b.seq));
    private long now = 1_000_000;
    private long seq;

    @Override
    public synchronized long nowMs() {
        return now;
    }

    @Override
    public Task schedule(long delayMs, Runnable task) {
        boolean[] cancelled = {false};
        synchronized (this) {
            if (delayMs > 0) {
                queue.add(new Entry(now + delayMs, seq++, task, cancelled));
                return () -> cancelled[0] = true;
            }
        }
        worker.execute(() -> {
            if (!cancelled[0]) {
                task.run();
            }
        });
        return () -> cancelled[0] = true;
    }

    /** Moves time forward and runs every task that falls due. */
    void advance(long ms) {
        List<Entry> due = new ArrayList<>();
        synchronized (this) {
            now += ms;
            while (!queue.isEmpty() && queue.peek().dueMs <= now) {
                due.add(queue.poll());
            }
        }
        for (Entry e : due) {
            worker.execute(() -> {
                if (!e.cancelled[0]) {
                    e.task.run();
                }
            });
        }
    }

    /** Waits until the worker ran every task submitted so far. */
    void drain() throws Exception {
        worker.submit(() -> { }).get(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        worker.shutdownNow();
    }
}
