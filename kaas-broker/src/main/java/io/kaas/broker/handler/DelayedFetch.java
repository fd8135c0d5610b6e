package io.kaas.broker.handler;

import io.kaas.api.storage.PartitionLog;
import io.kaas.broker.BrokerContext;
import io.kaas.broker.topic.PartitionWatchers;
import io.kaas.wire.message.FetchResponseData;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A fetch parked until {@code min_bytes} are available or {@code max_wait_ms} expires. It holds no
 * thread: a one-shot watcher on each partition schedules a re-read on the broker scheduler when data
 * is appended, and a timer answers with whatever is there at the deadline.
 */
final class DelayedFetch {
    private final BrokerContext ctx;
    private final PartitionWatchers watchers;
    private final FetchReader reader;
    private final int minBytes;
    private final CompletableFuture<FetchResponseData> future = new CompletableFuture<>();
    private final Runnable wake = this::scheduleRecheck;
    private final List<PartitionLog> logs = new ArrayList<>();
    private ScheduledFuture<?> timeout;

    private DelayedFetch(BrokerContext ctx, PartitionWatchers watchers, FetchReader reader, int minBytes) {
        this.ctx = ctx;
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
    static CompletableFuture<FetchResponseData> park(BrokerContext ctx, PartitionWatchers watchers, FetchReader reader,
                                                     int minBytes, int maxWaitMs, FetchReader.Result first) {
        DelayedFetch d = new DelayedFetch(ctx, watchers, reader, minBytes);
        synchronized (d) {
            d.timeout = ctx.scheduler().schedule(d::expire, maxWaitMs, TimeUnit.MILLISECONDS);
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

    private void scheduleRecheck() {
        if (future.isDone()) {
            return;
        }
        try {
            ctx.scheduler().execute(this::recheck);
        } catch (RejectedExecutionException e) {
            fail(e);
        }
    }

    private synchronized void recheck() {
        if (future.isDone()) {
            return;
        }
        unwatch();
        try {
            FetchReader.Result r = reader.read();
            if (r.bytes() >= minBytes || r.hasError()) {
                timeout.cancel(false);
                future.complete(r.response());
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
            future.complete(reader.read().response());
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
