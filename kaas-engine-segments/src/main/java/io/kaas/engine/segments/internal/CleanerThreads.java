package io.kaas.engine.segments.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log cleaner's threads, {@code kaas-segments-cleaner-N}, as Kafka's: {@code cleaner.threads} of them, so at most
 * that many partitions are compacted at once. Each thread goes over the open partitions, takes one no other thread
 * is compacting and runs a compaction pass on it ({@link LogCleaner}); a round over every partition that rewrote
 * nothing is followed by a sleep of {@code cleaner.backoff.ms} (a thread starts with that sleep too). Their reads and
 * writes share one {@link IoThrottle} ({@code cleaner.io.max.bytes.per.second}).
 *
 * <p>{@link #reconfigure} applies new settings at once: new threads start, threads above the new count finish the
 * partition they are compacting and stop, sleeping threads wake to the new backoff. Threads are never interrupted
 * (an interrupt closes the file channel a pass is using); {@link #close} asks them to stop and waits for them.
 */
final class CleanerThreads implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CleanerThreads.class);

    /** Compacts one partition (its {@link SegmentPartitionLog#cleaning} lock held); returns the segments rewritten. */
    interface Pass {
        int clean(SegmentPartitionLog log) throws Exception;
    }

    private final Supplier<List<SegmentPartitionLog>> logs;
    private final Pass pass;
    private final IoThrottle throttle;
    private final AtomicInteger cursor = new AtomicInteger();
    private final List<Worker> workers = new ArrayList<>(); // guarded by this
    private CleanerSettings settings; // guarded by this
    private boolean closed; // guarded by this

    CleanerThreads(CleanerSettings settings, Supplier<List<SegmentPartitionLog>> logs, Pass pass) {
        this.settings = settings;
        this.logs = logs;
        this.pass = pass;
        this.throttle = new IoThrottle(settings.ioMaxBytesPerSecond(), this::isClosed);
        synchronized (this) {
            resize(settings.threads());
        }
    }

    /** The throttle every compaction pass charges its reads and writes to (manual passes too). */
    IoThrottle throttle() {
        return throttle;
    }

    synchronized CleanerSettings settings() {
        return settings;
    }

    /** The names of the threads alive now (a stopped one not yet finished with its partition included), sorted. */
    synchronized List<String> liveThreadNames() {
        return workers.stream().filter(w -> w.thread.isAlive()).map(w -> w.thread.getName()).sorted().toList();
    }

    /** Applies {@code next} at once; logs {@code key old -> new} for what changed. */
    synchronized void reconfigure(CleanerSettings next) {
        if (closed || next.equals(settings)) {
            return;
        }
        String changes = next.changesFrom(settings);
        settings = next;
        if (next.ioMaxBytesPerSecond() != throttle.rate()) {
            throttle.rate(next.ioMaxBytesPerSecond());
        }
        resize(next.threads());
        notifyAll(); // sleeping threads re-read the backoff, stopped ones leave
        LOG.atInfo().addKeyValue("cleanerThreads", next.threads()).addKeyValue("ioMaxBytesPerSecond",
                next.ioMaxBytesPerSecond()).addKeyValue("backoffMs", next.backoffMs())
                .log("Log cleaner reconfigured: {}", changes);
    }

    private void resize(int threads) {
        workers.removeIf(w -> w.retired && !w.thread.isAlive());
        List<Worker> active = workers.stream().filter(w -> !w.retired).toList();
        for (int i = threads; i < active.size(); i++) {
            active.get(i).retired = true;
        }
        for (int i = active.size(); i < threads; i++) {
            Worker w = new Worker(freeNumber());
            workers.add(w);
            w.thread.start();
        }
    }

    private int freeNumber() {
        int n = 0;
        while (true) {
            int candidate = n;
            if (workers.stream().noneMatch(w -> w.number == candidate && (!w.retired || w.thread.isAlive()))) {
                return n;
            }
            n++;
        }
    }

    private synchronized boolean isClosed() {
        return closed;
    }

    private synchronized boolean retired(Worker w) {
        return closed || w.retired;
    }

    /** Sleeps {@code cleaner.backoff.ms} (as it is now, re-read on every change) unless the worker is stopped. */
    private synchronized void backOff(Worker w) {
        long start = System.nanoTime();
        while (!closed && !w.retired) {
            long left = TimeUnit.MILLISECONDS.toNanos(settings.backoffMs()) - (System.nanoTime() - start);
            if (left <= 0) {
                return;
            }
            try {
                TimeUnit.NANOSECONDS.timedWait(this, left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** One round over the open partitions: whether any pass rewrote something. */
    private boolean round(Worker w) {
        List<SegmentPartitionLog> open = logs.get();
        int n = open.size();
        int start = n == 0 ? 0 : Math.floorMod(cursor.getAndIncrement(), n);
        boolean cleaned = false;
        for (int i = 0; i < n && !retired(w); i++) {
            SegmentPartitionLog log = open.get((start + i) % n);
            if (log.isClosed() || !log.cleaning.tryLock()) {
                continue;
            }
            try {
                cleaned |= pass.clean(log) > 0;
            } catch (Exception e) {
                LOG.atWarn().addKeyValue("partition", log.key()).setCause(e)
                        .log("Compaction pass of {} failed", log.key());
            } finally {
                log.cleaning.unlock();
            }
        }
        return cleaned;
    }

    /** Stops every thread (each finishes the partition it is compacting) and waits for them, at most 30 s. */
    @Override
    public void close() {
        List<Worker> all;
        synchronized (this) {
            closed = true;
            notifyAll();
            all = List.copyOf(workers);
        }
        throttle.wake();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (Worker w : all) {
            try {
                w.thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private final class Worker implements Runnable {
        final int number;
        final Thread thread;
        volatile boolean retired;

        Worker(int number) {
            this.number = number;
            this.thread = new Thread(this, "kaas-segments-cleaner-" + number);
            thread.setDaemon(true);
        }

        @Override
        public void run() {
            boolean cleaned = false;
            while (!retired(this)) {
                if (!cleaned) {
                    backOff(this);
                    if (retired(this)) {
                        return;
                    }
                }
                try {
                    cleaned = round(this);
                } catch (RuntimeException e) {
                    LOG.atWarn().setCause(e).log("Compaction round failed");
                    cleaned = false;
                }
            }
        }
    }
}
