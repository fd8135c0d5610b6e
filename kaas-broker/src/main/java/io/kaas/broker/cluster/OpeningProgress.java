package io.kaas.broker.cluster;

import io.kaas.api.storage.PartitionKey;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reports the progress of one pass that opens (recovering, maybe compacting) the partitions assigned to this broker,
 * so an operator watching a long start-up or takeover knows the broker is working: every {@code interval}, a line
 * "opened N of M partitions"; at the end, one line with the total time - always for the start-up pass, otherwise only
 * when the pass was long enough to report progress. Not thread-safe: one pass, one thread.
 */
final class OpeningProgress {
    private static final Logger LOG = LoggerFactory.getLogger(OpeningProgress.class);

    /** How often a long pass reports. */
    static final long INTERVAL_MS = 5_000;

    private final int total;
    private final boolean startUp;
    private final LongSupplier nanoClock;
    private final long intervalNanos;
    private final long started;
    private long lastReport;
    private int opened;
    private int failed;
    private boolean reported;
    private PartitionKey slowest;
    private long slowestNanos = -1;

    /**
     * @param total     the partitions this pass opens
     * @param startUp   whether this is the broker's first pass (its end is always logged)
     * @param nanoClock {@link System#nanoTime} but in tests
     */
    OpeningProgress(int total, boolean startUp, LongSupplier nanoClock, long intervalMs) {
        this.total = total;
        this.startUp = startUp;
        this.nanoClock = nanoClock;
        this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(intervalMs);
        this.started = nanoClock.getAsLong();
        this.lastReport = started;
    }

    /**
     * One partition done: opened, or failed to open (to be tried again later), after {@code tookNanos}.
     *
     * @return the progress line logged now, or null if it is not yet time for one
     */
    String partitionDone(PartitionKey key, boolean ok, long tookNanos) {
        if (ok) {
            opened++;
        } else {
            failed++;
        }
        if (tookNanos > slowestNanos) {
            slowestNanos = tookNanos;
            slowest = key;
        }
        long now = nanoClock.getAsLong();
        if (now - lastReport < intervalNanos || opened + failed == total) {
            return null;
        }
        lastReport = now;
        reported = true;
        String line = String.format("Opening partitions: opened %d of %d partitions (%d failed, to be retried), %d s so "
                + "far; the slowest, %s, took %d ms", opened, total, failed, seconds(now), slowest, millis(slowestNanos));
        LOG.atInfo().addKeyValue("opened", opened).addKeyValue("total", total).addKeyValue("failed", failed)
                .addKeyValue("elapsedMs", millis(now - started)).log("{}", line);
        return line;
    }

    /**
     * The pass is over.
     *
     * @return the line logged, or null when nothing is worth a line (no partition to open, or a short pass after
     *         the start-up)
     */
    String finished() {
        if (total == 0 || (!startUp && !reported)) {
            return null;
        }
        long now = nanoClock.getAsLong();
        String line = String.format("Opened %d of %d partitions in %d ms (%d failed, to be retried)%s", opened, total,
                millis(now - started), failed, slowest == null ? ""
                        : String.format("; the slowest, %s, took %d ms", slowest, millis(slowestNanos)));
        LOG.atInfo().addKeyValue("opened", opened).addKeyValue("total", total).addKeyValue("failed", failed)
                .addKeyValue("elapsedMs", millis(now - started)).log("{}", line);
        return line;
    }

    private long seconds(long now) {
        return TimeUnit.NANOSECONDS.toSeconds(now - started);
    }

    private static long millis(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }
}
