package io.kaas.broker.network;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.Executor;

/**
 * Runs one connection's tasks one at a time, in submission order, on a shared executor. Kafka
 * handles a connection's requests in the order they arrived; a produce pipelined behind another
 * must reach the engine after it, or sequences (and record order) break. A task ends when the
 * handler's {@code handle()} returns, not when its future completes, so fsync waits still overlap.
 */
final class SerialExecutor implements Executor {
    private final Executor delegate;
    private final Queue<Runnable> tasks = new ArrayDeque<>();
    private boolean running;

    SerialExecutor(Executor delegate) {
        this.delegate = delegate;
    }

    @Override
    public void execute(Runnable task) {
        synchronized (tasks) {
            tasks.add(task);
            if (running) {
                return;
            }
            running = true;
        }
        try {
            delegate.execute(this::drain);
        } catch (RuntimeException e) {
            synchronized (tasks) {
                tasks.remove(task);
                running = false;
            }
            throw e;
        }
    }

    private void drain() {
        while (true) {
            Runnable next;
            synchronized (tasks) {
                next = tasks.poll();
                if (next == null) {
                    running = false;
                    return;
                }
            }
            next.run();
        }
    }
}
