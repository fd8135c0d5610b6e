package io.kaas.broker.network;

import io.netty.channel.EventLoop;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code queued.max.requests}: the requests read and not yet handed to a handler (waiting for a request-handler
 * thread, or behind an earlier request of the same connection), across every connection; and
 * {@code queued.max.request.bytes}: the bytes of the request frames held (read and not yet answered). A request that
 * finds a bound reached is kept aside, undecoded, by its connection, which stops being read; the connections kept
 * waiting go on once the counts have drained to half the bounds. Thread-safe.
 */
final class RequestQueueBound {

    private record Held(Runnable resume, EventLoop loop) {
    }

    private final int max;
    private final int resumeAt;
    private final long maxBytes;
    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicLong bytes = new AtomicLong();
    private final Queue<Held> held = new ConcurrentLinkedQueue<>();

    /**
     * @param max      {@code queued.max.requests}
     * @param maxBytes {@code queued.max.request.bytes}: bytes of request frames held (read, not yet answered) across
     *                 every connection before no more requests are processed; zero or negative: no bound
     */
    RequestQueueBound(int max, long maxBytes) {
        if (max < 1) {
            throw new IllegalArgumentException("queued.max.requests must be at least 1: " + max);
        }
        this.max = max;
        this.resumeAt = max / 2;
        this.maxBytes = maxBytes;
    }

    /** Takes a place for one request; false (nothing taken) when either bound is reached. */
    boolean tryQueue() {
        while (true) {
            int n = queued.get();
            if (n >= max || maxBytes > 0 && bytes.get() >= maxBytes) {
                return false;
            }
            if (queued.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    /** A queued request reached its handler (or was answered or dropped): its place frees. */
    void started() {
        queued.decrementAndGet();
        if (!held.isEmpty() && drained()) {
            resumeHeld();
        }
    }

    /** Request frames of {@code delta} bytes are now held (positive) or released (negative). */
    void held(long delta) {
        bytes.addAndGet(delta);
        if (delta < 0 && !held.isEmpty() && drained()) {
            resumeHeld();
        }
    }

    /** Runs {@code resume} on {@code loop} once the queue has drained to half the bounds (at once if it has). */
    void whenDrained(Runnable resume, EventLoop loop) {
        held.add(new Held(resume, loop));
        // Handlers may have drained the queue between the caller's failed tryQueue and the add: check again.
        if (drained()) {
            resumeHeld();
        }
    }

    /** Bytes of request frames held across every connection. */
    long heldBytes() {
        return bytes.get();
    }

    private boolean drained() {
        return queued.get() <= resumeAt && (maxBytes <= 0 || bytes.get() <= maxBytes / 2);
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
