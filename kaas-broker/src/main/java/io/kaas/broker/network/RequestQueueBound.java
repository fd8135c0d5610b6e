package io.kaas.broker.network;

import io.netty.channel.EventLoop;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code queued.max.requests}: the requests read and not yet handed to a handler (waiting for a request-handler
 * thread, or behind an earlier request of the same connection), across every connection. A request that finds the
 * bound reached is kept aside, undecoded, by its connection, which stops being read; the connections kept waiting
 * go on once the count has drained to half the bound. Thread-safe.
 */
final class RequestQueueBound {

    private record Held(Runnable resume, EventLoop loop) {
    }

    private final int max;
    private final int resumeAt;
    private final AtomicInteger queued = new AtomicInteger();
    private final Queue<Held> held = new ConcurrentLinkedQueue<>();

    RequestQueueBound(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("queued.max.requests must be at least 1: " + max);
        }
        this.max = max;
        this.resumeAt = max / 2;
    }

    /** Takes a place for one request; false (nothing taken) when the bound is reached. */
    boolean tryQueue() {
        while (true) {
            int n = queued.get();
            if (n >= max) {
                return false;
            }
            if (queued.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    /** A queued request reached its handler (or was answered or dropped): its place frees. */
    void started() {
        if (queued.decrementAndGet() <= resumeAt && !held.isEmpty()) {
            resumeHeld();
        }
    }

    /** Runs {@code resume} on {@code loop} once the queue has drained to half the bound (at once if it has). */
    void whenDrained(Runnable resume, EventLoop loop) {
        held.add(new Held(resume, loop));
        // Handlers may have drained the queue between the caller's failed tryQueue and the add: check again.
        if (queued.get() <= resumeAt) {
            resumeHeld();
        }
    }

    /** Requests read and not yet handed to a handler. */
    int queued() {
        return queued.get();
    }

    int max() {
        return max;
    }

    private void resumeHeld() {
        Held h;
        while ((h = held.poll()) != null) {
            h.loop().execute(h.resume());
        }
    }
}
