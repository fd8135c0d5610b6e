package io.kaas.coordinator.group;

import io.kaas.coordinator.CoordinatorTimer;
import java.util.PriorityQueue;

/** A {@link CoordinatorTimer} whose time moves only when a test calls {@link #advance}. Single-threaded. */
final class ManualTimer implements CoordinatorTimer {
    private record Entry(long dueMs, long seq, Runnable task, boolean[] cancelled) {
    }

    private final PriorityQueue<Entry> queue = new PriorityQueue<>((a, b) -> a.dueMs != b.dueMs
            ? Long.compare(a.dueMs, b.dueMs) : Long.compare(a.seq, b.seq));
    private long now = 1_000_000;
    private long seq;

    @Override
    public long nowMs() {
        return now;
    }

    @Override
    public Task schedule(long delayMs, Runnable task) {
        boolean[] cancelled = {false};
        queue.add(new Entry(now + Math.max(0, delayMs), seq++, task, cancelled));
        return () -> cancelled[0] = true;
    }

    /** Moves time forward, running every task that falls due, in order. */
    void advance(long ms) {
        long target = now + ms;
        while (!queue.isEmpty() && queue.peek().dueMs <= target) {
            Entry e = queue.poll();
            now = Math.max(now, e.dueMs);
            if (!e.cancelled[0]) {
                e.task.run();
            }
        }
        now = target;
    }
}
