package io.kaas.broker.console;

import io.kaas.broker.admin.Answer;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live charts' history: every {@link #INTERVAL_MS} a scheduled task reads the broker's own meters (the
 * all-topics BrokerTopicMetrics counters, the Produce and FetchConsumer request times, the log flush timer) and
 * each group's total lag, and keeps {@link #WINDOW_MS} of points in ring buffers. Nothing runs on the produce or
 * fetch path: the meters are the ones /metrics serves. Rates are the counters' increase over the interval; the
 * request-time p99 is Micrometer's (a decaying window of about a minute); the fsync p99 is computed from the flush
 * timer's histogram buckets over the interval (null when nothing was flushed). Messages out is not counted by the
 * broker (that would mean reading the batch headers Fetch sends without looking at them): it is estimated as
 * bytes out divided by the average size of a record appended since start, and said so in the answer. Thread-safe.
 */
final class ChartsSampler implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ChartsSampler.class);
    static final long INTERVAL_MS = 5_000;
    static final long WINDOW_MS = 15 * 60_000;
    private static final int POINTS = (int) (WINDOW_MS / INTERVAL_MS);
    static final List<String> SERIES = List.of("messagesInPerSec", "messagesOutPerSec", "bytesInPerSec",
        "bytesOutPerSec", "produceLatencyP99Ms", "fetchLatencyP99Ms", "fsyncLatencyP99Ms");

    private final MeterRegistry registry;
    private final Supplier<Map<String, Long>> groupLag;
    private final Map<String, Ring> series = new LinkedHashMap<>();
    private final Map<String, Ring> lag = new HashMap<>();
    private ScheduledFuture<?> task;
    private long lastMs = -1;
    private double lastIn = Double.NaN;
    private double lastBytesIn = Double.NaN;
    private double lastBytesOut = Double.NaN;
    private double[] lastFlushBuckets;
    private long lastFlushCount;

    /**
     * @param registry the broker's meter registry
     * @param groupLag each group's total lag now (end offset minus committed, summed over its partitions)
     */
    ChartsSampler(MeterRegistry registry, Supplier<Map<String, Long>> groupLag) {
        this.registry = registry;
        this.groupLag = groupLag;
        for (String s : SERIES) {
            series.put(s, new Ring(POINTS));
        }
    }

    /** Starts sampling on {@code scheduler}, the first sample at once. */
    synchronized void start(ScheduledExecutorService scheduler) {
        task = scheduler.scheduleAtFixedRate(this::sampleSafely, 0, INTERVAL_MS, TimeUnit.MILLISECONDS);
    }

    private void sampleSafely() {
        try {
            sample(System.currentTimeMillis());
        } catch (RuntimeException e) {
            LOG.atWarn().setCause(e).log("console charts: sampling the broker's metrics failed: {}", e.toString());
        }
    }

    /** Takes one sample at {@code nowMs}. */
    synchronized void sample(long nowMs) {
        double in = counter("kafka.server.brokertopicmetrics.messagesin");
        double bytesIn = counter("kafka.server.brokertopicmetrics.bytesin");
        double bytesOut = counter("kafka.server.brokertopicmetrics.bytesout");
        double[] flush = flushBuckets();
        if (lastMs >= 0 && nowMs > lastMs) {
            double seconds = (nowMs - lastMs) / 1000.0;
            series.get("messagesInPerSec").add(nowMs, rate(in, lastIn, seconds));
            Double outBytesRate = rate(bytesOut, lastBytesOut, seconds);
            series.get("bytesInPerSec").add(nowMs, rate(bytesIn, lastBytesIn, seconds));
            series.get("bytesOutPerSec").add(nowMs, outBytesRate);
            Double perRecord = in > 0 && bytesIn > 0 ? bytesIn / in : null;
            series.get("messagesOutPerSec").add(nowMs,
                outBytesRate == null || perRecord == null ? (outBytesRate == null ? null : 0.0) : outBytesRate / perRecord);
            series.get("produceLatencyP99Ms").add(nowMs, requestP99("Produce"));
            series.get("fetchLatencyP99Ms").add(nowMs, requestP99("FetchConsumer"));
            double[] before = lastFlushBuckets;
            if (flush != null && (before == null || before.length != flush.length) && lastFlushCount == 0) {
                before = new double[flush.length]; // nothing was flushed before: the buckets start at zero
            }
            series.get("fsyncLatencyP99Ms").add(nowMs, flushP99(flush, before));
        }
        lastMs = nowMs;
        lastIn = in;
        lastBytesIn = bytesIn;
        lastBytesOut = bytesOut;
        lastFlushBuckets = flush == null ? null : flush.clone();
        Timer flushTimer = registry.find("kaas.log.flush").timer();
        lastFlushCount = flushTimer == null ? 0 : flushTimer.count();
        sampleLag(nowMs);
    }

    private void sampleLag(long nowMs) {
        Map<String, Long> now = groupLag.get();
        for (Map.Entry<String, Long> e : now.entrySet()) {
            lag.computeIfAbsent(e.getKey(), g -> new Ring(POINTS)).add(nowMs, e.getValue().doubleValue());
        }
        for (Iterator<Map.Entry<String, Ring>> it = lag.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Ring> e = it.next();
            if (!now.containsKey(e.getKey()) && e.getValue().newestMs() < nowMs - WINDOW_MS) {
                it.remove();
            }
        }
    }

    /** {@code GET /api/v1/charts}. */
    synchronized Answer render() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("intervalMs", INTERVAL_MS);
        body.put("windowMs", WINDOW_MS);
        Map<String, Object> out = new LinkedHashMap<>();
        series.forEach((k, v) -> out.put(k, v.points()));
        body.put("series", out);
        body.put("estimated", Map.of("messagesOutPerSec",
            "bytesOutPerSec divided by the average size of the records appended since start"));
        return Json.answer(200, body);
    }

    /** The total-lag history of {@code group}, oldest first ([tsMs, lag] points). */
    synchronized List<Object[]> lagHistory(String group) {
        Ring r = lag.get(group);
        if (r == null) {
            return List.of();
        }
        List<Object[]> points = r.points();
        for (Object[] p : points) {
            p[1] = p[1] == null ? null : ((Double) p[1]).longValue();
        }
        return points;
    }

    private double counter(String name) {
        for (FunctionCounter c : registry.find(name).functionCounters()) {
            if (c.getId().getTag("topic") == null) {
                return c.count();
            }
        }
        return Double.NaN;
    }

    private static Double rate(double now, double before, double seconds) {
        if (Double.isNaN(now) || Double.isNaN(before)) {
            return null;
        }
        return Math.max(0, now - before) / seconds;
    }

    private Double requestP99(String request) {
        DistributionSummary s = registry.find("kafka.network.requestmetrics.totaltimems").tag("request", request)
            .summary();
        if (s == null) {
            return null;
        }
        for (ValueAtPercentile v : s.takeSnapshot().percentileValues()) {
            if (Math.abs(v.percentile() - 0.99) < 1e-9) {
                return Double.isNaN(v.value()) ? null : v.value();
            }
        }
        return null;
    }

    private double[] bucketBounds;

    private double[] flushBuckets() {
        Timer t = registry.find("kaas.log.flush").timer();
        if (t == null) {
            return null;
        }
        HistogramSnapshot snap = t.takeSnapshot();
        CountAtBucket[] buckets = snap.histogramCounts();
        double[] counts = new double[buckets.length];
        double[] bounds = new double[buckets.length];
        for (int i = 0; i < buckets.length; i++) {
            counts[i] = buckets[i].count();
            bounds[i] = buckets[i].bucket(TimeUnit.MILLISECONDS);
        }
        bucketBounds = bounds;
        return counts;
    }

    /** The 99th percentile (the upper bound of its bucket, in ms) of the flushes between two cumulative snapshots. */
    private Double flushP99(double[] now, double[] before) {
        if (now == null || before == null || now.length != before.length || now.length == 0) {
            return null;
        }
        double total = now[now.length - 1] - before[before.length - 1];
        if (total <= 0) {
            return null;
        }
        double target = total * 0.99;
        for (int i = 0; i < now.length; i++) {
            if (now[i] - before[i] >= target) {
                return bucketBounds[i];
            }
        }
        return bucketBounds[now.length - 1];
    }

    @Override
    public synchronized void close() {
        if (task != null) {
            task.cancel(false);
        }
    }

    /** A fixed-size ring of [tsMs, value] points. */
    private static final class Ring {
        private final long[] ts;
        private final Double[] values;
        private int next;
        private int size;

        Ring(int capacity) {
            ts = new long[capacity];
            values = new Double[capacity];
        }

        void add(long tsMs, Double value) {
            ts[next] = tsMs;
            values[next] = value == null || value.isNaN() || value.isInfinite() ? null : value;
            next = (next + 1) % ts.length;
            size = Math.min(size + 1, ts.length);
        }

        long newestMs() {
            return size == 0 ? Long.MIN_VALUE : ts[(next - 1 + ts.length) % ts.length];
        }

        List<Object[]> points() {
            List<Object[]> out = new ArrayList<>(size);
            int first = (next - size + ts.length) % ts.length;
            for (int i = 0; i < size; i++) {
                int at = (first + i) % ts.length;
                out.add(new Object[] {ts[at], values[at]});
            }
            return out;
        }
    }
}
