package io.kaas.engine.segments.internal;

import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.plugin.PluginConfigException;
import java.util.Set;

/**
 * The engine's own settings (keys under {@code storage.segments.}, prefix removed).
 *
 * @param committerThreads           threads shared by all partitions for group-commit fsyncs ({@code committer.threads})
 * @param deletedSegmentCloseDelayMs how long a deleted segment's file stays open for in-flight reads
 *                                   ({@code deleted.segment.close.delay.ms})
 * @param checkpointIntervalMs       least time between two recovery checkpoints written by the committer
 *                                   ({@code recovery.checkpoint.interval.ms}); a crash rescans at most what was
 *                                   written in about that time. Roll and clean close always write one
 * @param retentionCheckIntervalMs   period of the background retention pass ({@code retention.check.interval.ms},
 *                                   as Kafka's {@code log.retention.check.interval.ms})
 * @param fsyncTimeoutMs             an fsync running longer takes its partition offline ({@code fsync.timeout.ms})
 * @param flushIntervalMs            non-durable appends reach disk within about this time ({@code flush.interval.ms},
 *                                   as Kafka's {@code log.flush.interval.ms})
 * @param cleanerMaxKeysPerPass      most keys one compaction pass maps ({@code cleaner.max.keys.per.pass}); the map
 *                                   takes about 48 bytes per key, and a log with more keys is cleaned over several passes
 * @param cleaner                    the cleaner threads' settings ({@code cleaner.threads},
 *                                   {@code cleaner.io.max.bytes.per.second}, {@code cleaner.backoff.ms}), the ones
 *                                   that change at run time
 */
record SegmentEngineConfig(int committerThreads, long deletedSegmentCloseDelayMs, long checkpointIntervalMs,
                           long retentionCheckIntervalMs, long fsyncTimeoutMs, long flushIntervalMs,
                           int cleanerMaxKeysPerPass, CleanerSettings cleaner) {
    static final String COMMITTER_THREADS = "committer.threads";
    static final String CLOSE_DELAY = "deleted.segment.close.delay.ms";
    static final String CHECKPOINT_INTERVAL = "recovery.checkpoint.interval.ms";
    static final String RETENTION_CHECK_INTERVAL = "retention.check.interval.ms";
    static final String FSYNC_TIMEOUT = "fsync.timeout.ms";
    static final String FLUSH_INTERVAL = "flush.interval.ms";
    static final String CLEANER_MAX_KEYS = "cleaner.max.keys.per.pass";
    /** Every key {@link #from} reads. */
    static final Set<String> KEYS = Set.of(COMMITTER_THREADS, CLOSE_DELAY, CHECKPOINT_INTERVAL, RETENTION_CHECK_INTERVAL,
            FSYNC_TIMEOUT, FLUSH_INTERVAL, CLEANER_MAX_KEYS, CleanerSettings.THREADS, CleanerSettings.IO_MAX_BYTES_PER_SECOND,
            CleanerSettings.BACKOFF_MS);

    static SegmentEngineConfig from(PluginConfig config) {
        int threads = config.getInt(COMMITTER_THREADS, 2);
        if (threads < 1) {
            throw new PluginConfigException(COMMITTER_THREADS, "must be at least 1, got " + threads);
        }
        return new SegmentEngineConfig(threads, atLeast(config, CLOSE_DELAY, 60_000L, 0),
                atLeast(config, CHECKPOINT_INTERVAL, 5_000L, 0), atLeast(config, RETENTION_CHECK_INTERVAL, 300_000L, 1),
                atLeast(config, FSYNC_TIMEOUT, 30_000L, 1), atLeast(config, FLUSH_INTERVAL, 500L, 1),
                Math.toIntExact(Math.min(atLeast(config, CLEANER_MAX_KEYS, 500_000L, 1), 1L << 28)),
                CleanerSettings.from(config));
    }

    static long atLeast(PluginConfig config, String key, long defaultValue, long min) {
        long v = config.getLong(key, defaultValue);
        if (v < min) {
            throw new PluginConfigException(key, "must be at least " + min + ", got " + v);
        }
        return v;
    }

    /** How often the watchdog looks at running fsyncs and at unflushed data. */
    long watchdogTickMs() {
        return Math.max(1, Math.min(Math.min(fsyncTimeoutMs / 4, flushIntervalMs), 1_000L));
    }
}
