package io.kaas.broker.network;

import java.util.BitSet;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The request-handler threads ({@code num.io.threads}), {@code kaas-request-handler-N}, resizable at run time as
 * Kafka's {@code KafkaRequestHandlerPool}: a grown pool starts its new threads at once, a shrunk one lets each thread
 * above the new size finish the request it runs and then stop. Nothing queued is lost or reordered: the queue is
 * shared by every thread, and a connection's requests are ordered by its {@link SerialExecutor} above the pool, not
 * by the thread that runs them. A thread takes the lowest free number, so the names stay {@code 0..size-1} once a
 * shrink has settled, as Kafka's handler ids.
 */
final class RequestHandlerPool extends ThreadPoolExecutor {
    private static final Logger LOG = LoggerFactory.getLogger(RequestHandlerPool.class);

    private RequestHandlerPool(int threads, Numbers numbers) {
        super(threads, threads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), numbers);
    }

    static RequestHandlerPool of(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("num.io.threads must be at least 1, got " + threads);
        }
        return new RequestHandlerPool(threads, new Numbers());
    }

    /** The number of threads the pool runs with (once a shrink has settled). */
    synchronized int size() {
        return getCorePoolSize();
    }

    /**
     * Resizes the pool to {@code threads}, logging {@code num.io.threads old -> new}; the same size is a no-op.
     *
     * @throws IllegalArgumentException if {@code threads} is below 1; nothing changes then
     */
    synchronized void resize(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("num.io.threads must be at least 1, got " + threads);
        }
        int old = getCorePoolSize();
        if (threads == old) {
            return;
        }
        if (threads > old) {
            setMaximumPoolSize(threads);
            setCorePoolSize(threads);
            prestartAllCoreThreads();
        } else {
            setCorePoolSize(threads);
            setMaximumPoolSize(threads);
        }
        LOG.atInfo().addKeyValue("numIoThreads", threads)
                .log("Request handler pool resized: num.io.threads {} -> {}", old, threads);
    }

    /** Names each thread {@code kaas-request-handler-N} with the lowest N no live thread of the pool holds. */
    private static final class Numbers implements ThreadFactory {
        private final BitSet used = new BitSet();

        @Override
        public Thread newThread(Runnable r) {
            int n;
            synchronized (used) {
                n = used.nextClearBit(0);
                used.set(n);
            }
            Thread t = new Thread(() -> {
                try {
                    r.run();
                } finally {
                    synchronized (used) {
                        used.clear(n);
                    }
                }
            }, "kaas-request-handler-" + n);
            t.setDaemon(true);
            return t;
        }
    }
}
