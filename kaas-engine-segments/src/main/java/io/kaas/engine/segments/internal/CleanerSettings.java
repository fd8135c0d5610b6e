package io.kaas.engine.segments.internal;

import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.plugin.PluginConfigException;

/**
 * The log cleaner's settings that change at run time (as Kafka's {@code LogCleaner.ReconfigurableConfigs}); the
 * broker gives them from {@code log.cleaner.threads}, {@code log.cleaner.io.max.bytes.per.second} and
 * {@code log.cleaner.backoff.ms} when the engine's own keys are not set.
 *
 * @param threads               partitions compacted at once ({@code cleaner.threads}); 0: compaction runs only when
 *                              {@link SegmentEngine#runCleanerPass} is called
 * @param ioMaxBytesPerSecond   bytes per second the cleaner threads read and write together
 *                              ({@code cleaner.io.max.bytes.per.second}); {@link Double#MAX_VALUE}: no bound
 * @param backoffMs             how long a cleaner thread sleeps when it found nothing to compact
 *                              ({@code cleaner.backoff.ms})
 */
record CleanerSettings(int threads, double ioMaxBytesPerSecond, long backoffMs) {
    static final String THREADS = "cleaner.threads";
    static final String IO_MAX_BYTES_PER_SECOND = "cleaner.io.max.bytes.per.second";
    static final String BACKOFF_MS = "cleaner.backoff.ms";

    static CleanerSettings from(PluginConfig config) {
        int threads = Math.toIntExact(Math.min(SegmentEngineConfig.atLeast(config, THREADS, 1, 0), 1024));
        double rate;
        String raw = config.get(IO_MAX_BYTES_PER_SECOND).orElse(null);
        try {
            rate = raw == null ? Double.MAX_VALUE : Double.parseDouble(raw.trim());
        } catch (NumberFormatException e) {
            throw new PluginConfigException(IO_MAX_BYTES_PER_SECOND, "expected a number, got '" + raw + "'");
        }
        if (!(rate > 0)) {
            throw new PluginConfigException(IO_MAX_BYTES_PER_SECOND, "must be greater than 0, got " + raw);
        }
        return new CleanerSettings(threads, rate, SegmentEngineConfig.atLeast(config, BACKOFF_MS, 15_000L, 0));
    }

    /** The changes from {@code old} to this, as {@code key old -> new} for a log line; empty if none. */
    String changesFrom(CleanerSettings old) {
        StringBuilder b = new StringBuilder();
        if (old.threads != threads) {
            b.append(THREADS).append(' ').append(old.threads).append(" -> ").append(threads);
        }
        if (old.ioMaxBytesPerSecond != ioMaxBytesPerSecond) {
            b.append(b.isEmpty() ? "" : ", ").append(IO_MAX_BYTES_PER_SECOND).append(' ')
                    .append(old.ioMaxBytesPerSecond).append(" -> ").append(ioMaxBytesPerSecond);
        }
        if (old.backoffMs != backoffMs) {
            b.append(b.isEmpty() ? "" : ", ").append(BACKOFF_MS).append(' ').append(old.backoffMs).append(" -> ")
                    .append(backoffMs);
        }
        return b.toString();
    }
}
