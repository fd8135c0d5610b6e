package io.kaas.engine.segments.internal;

import io.kaas.api.storage.KafkaStorageException;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Coalesces one partition's fsyncs. Appenders register the log end offset they need durable; one
 * task on a shared executor performs a single {@link ForceTarget#force()} covering every append
 * published so far, then completes every waiter it covers together. Waiters registered while a
 * force runs are served by the next force (capacity-one coalescing). No thread per waiter.
 *
 * <p>A failed force is never retried: every pending and later waiter fails with
 * {@link KafkaStorageException} and the owner is told to take the partition offline.
 */
final class GroupCommitter {

    /** The fsync to perform: forces the active segment and returns the log end offset it covers. */
    interface ForceTarget {
        long force() throws IOException;

        /** Called on the committer thread after the waiters a force covered were completed (checkpointing). */
        default void afterDurable() {
        }
    }

    private record Waiter(long offset, CompletableFuture<Void> future) {
    }

    private final Executor executor;
    private final ForceTarget target;
    private final Consumer<Throwable> onFailure;
    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
    private final AtomicLong forces = new AtomicLong();
    private boolean running;
    private boolean flushRequested;
    private boolean closed;
    private long durableOffset;
    private KafkaStorageException failure;

    GroupCommitter(Executor executor, ForceTarget target, long durableOffset, Consumer<Throwable> onFailure) {
        this.executor = executor;
        this.target = target;
        this.durableOffset = durableOffset;
        this.onFailure = onFailure;
    }

    /** Completes once every offset below {@code endOffset} is on stable storage. */
    CompletableFuture<Void> awaitDurable(long endOffset) {
        synchronized (this) {
            if (failure != null) {
                return CompletableFuture.failedFuture(failure);
            }
            if (endOffset <= durableOffset) {
                return CompletableFuture.completedFuture(null);
            }
            Waiter w = new Waiter(endOffset, new CompletableFuture<>());
            waiters.addLast(w);
            scheduleLocked();
            return w.future();
        }
    }

    /** Asks for an fsync soon, without anyone waiting (non-durable appends past {@code flush.messages}). */
    synchronized void requestFlush() {
        if (failure == null) {
            flushRequested = true;
            scheduleLocked();
        }
    }

    /** Notes that a synchronous fsync (roll, close) made everything below {@code endOffset} durable. */
    void markDurable(long endOffset) {
        List<Waiter> done = new ArrayList<>();
        synchronized (this) {
            if (failure != null) {
                return; // e.g. the watchdog gave up on this force: what it covered is never acknowledged
            }
            durableOffset = Math.max(durableOffset, endOffset);
            while (!waiters.isEmpty() && waiters.peekFirst().offset() <= durableOffset) {
                done.add(waiters.removeFirst());
            }
        }
        done.forEach(w -> w.future().complete(null));
    }

    /** Fails every pending and later waiter; the force is never retried. */
    void fail(Throwable cause) {
        List<Waiter> failed;
        KafkaStorageException e;
        synchronized (this) {
            if (failure == null) {
                failure = cause instanceof KafkaStorageException kse ? kse
                        : new KafkaStorageException("fsync failed; the partition is offline until restart", cause);
            }
            e = failure;
            failed = new ArrayList<>(waiters);
            waiters.clear();
        }
        failed.forEach(w -> w.future().completeExceptionally(e));
    }

    /** Stops scheduling forces; the owner has already forced and called {@link #markDurable}. */
    void close() {
        synchronized (this) {
            closed = true;
        }
        fail(new KafkaStorageException("partition closed before the append was made durable"));
    }

    long forceCount() {
        return forces.get();
    }

    synchronized long durableOffset() {
        return durableOffset;
    }

    private void scheduleLocked() {
        if (!running && !closed) {
            running = true;
            executor.execute(this::run);
        }
    }

    private void run() {
        while (true) {
            synchronized (this) {
                if (closed || failure != null || (waiters.isEmpty() && !flushRequested)) {
                    running = false;
                    return;
                }
                flushRequested = false;
            }
            long covered;
            try {
                covered = target.force();
                forces.incrementAndGet();
            } catch (IOException | RuntimeException e) {
                synchronized (this) {
                    running = false;
                    if (closed) {
                        return;
                    }
                }
                // Offline first: a waiter told of the failure must find the partition refusing appends.
                onFailure.accept(e);
                fail(e);
                return;
            }
            markDurable(covered);
            target.afterDurable();
        }
    }
}
