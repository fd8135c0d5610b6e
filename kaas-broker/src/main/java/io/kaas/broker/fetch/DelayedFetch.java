package io.kaas.broker.fetch;

import io.kaas.api.storage.PartitionLog;
import io.kaas.broker.BrokerContext;
import io.kaas.broker.topic.PartitionWatchers;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A fetch parked until {@code min_bytes} are available or {@code max_wait_ms} expires. It holds no
 * thread and polls nothing: a one-shot watcher on each partition hands a re-read to the fetch
 * executor when data is appended, and a timer on the broker scheduler hands the final read to the same
 * executor at the deadline. The scheduler thread itself never reads; an idle long-poll costs one timer.
 */
public final class DelayedFetch {
    private final BrokerContext ctx;
    private final Executor executor;
    private final PartitionWatchers watchers;
    private final FetchReader reader;
    private final int minBytes;
    private final CompletableFuture<FetchReader.Result> future = new CompletableFuture<>();
    private final Runnable wake = this::scheduleRecheck;
    private final List<PartitionLog> logs = new ArrayList<>();
    private final AtomicBoolean recheckPending = new AtomicBoolean();
    private ScheduledFuture<?> timeout;

    private DelayedFetch(BrokerContext ctx, Executor executor, PartitionWatchers watchers, FetchReader reader,
                         int minBytes) {
        this.ctx = ctx;
        this.executor = executor;
        this.watchers = watchers;
        this.reader = reader;
        this.minBytes = minBytes;
        for (FetchReader.Target t : reader.targets()) {
            if (t.log() != null) {
                logs.add(t.log());
            }
        }
    }

    /** Parks a fetch whose first read ({@code first}) did not satisfy {@code minBytes}. */
    public static CompletableFuture<FetchReader.Result> park(BrokerContext ctx, Executor executor, PartitionWatchers watchers,
                                                      FetchReader reader, int minBytes, int maxWaitMs,
                                                      FetchReader.Result first) {
        DelayedFetch d = new DelayedFetch(ctx, executor, watchers, reader, minBytes);
        synchronized (d) {
            d.timeout = ctx.scheduler().schedule(d::scheduleExpiry, maxWaitMs, TimeUnit.MILLISECONDS);
            d.watch(first.before());
        }
        return d.future;
    }

    /** Registers the watchers, then re-checks at once if anything changed since the last read began. */
    private void watch(long[] beforeLastRead) {
        for (PartitionLog log : logs) {
            watchers.watch(log.key(), wake);
        }
        if (!Arrays.equals(beforeLastRead, reader.snapshot())) {
            scheduleRecheck();
        }
    }

    /** Appends to several watched partitions before the re-read runs cost one re-read. */
    private void scheduleRecheck() {
        if (future.isDone() || !recheckPending.compareAndSet(false, true)) {
            return;
        }
        try {
            executor.execute(this::recheck);
        } catch (RejectedExecutionException e) {
            fail(e);
        }
    }

    private void scheduleExpiry() {
        try {
            executor.execute(this::expire);
        } catch (RejectedExecutionException e) {
            fail(e);
        }
    }

    private synchronized void recheck() {
        recheckPending.set(false);
        if (future.isDone()) {
            return;
        }
        unwatch();
        try {
            FetchReader.Result r = reader.read();
            if (r.bytes() >= minBytes || r.hasError()) {
                timeout.cancel(false);
                future.complete(r);
                return;
            }
            watch(r.before());
        } catch (RuntimeException e) {
            fail(e);
        }
    }

    private synchronized void expire() {
        if (future.isDone()) {
            return;
        }
        unwatch();
        try {
            future.complete(reader.read());
        } catch (RuntimeException e) {
            fail(e);
        }
    }

    private void fail(Throwable e) {
        unwatch();
        if (timeout != null) {
            timeout.cancel(false);
        }
        future.completeExceptionally(e);
    }

    private void unwatch() {
        for (PartitionLog log : logs) {
            watchers.unwatch(log.key(), wake);
        }
    }
}
