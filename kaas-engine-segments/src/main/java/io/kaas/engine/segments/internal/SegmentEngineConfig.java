package io.kaas.engine.segments.internal;

import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.plugin.PluginConfigException;

/**
 * The engine's own settings (keys under {@code storage.segments.}, prefix removed).
 *
 * @param committerThreads           threads shared by all partitions for group-commit fsyncs ({@code committer.threads})
 * @param deletedSegmentCloseDelayMs how long a deleted segment's file stays open for in-flight reads
 *                                   ({@code deleted.segment.close.delay.ms})
 */
record SegmentEngineConfig(int committerThreads, long deletedSegmentCloseDelayMs) {
    static final String COMMITTER_THREADS = "committer.threads";
    static final String CLOSE_DELAY = "deleted.segment.close.delay.ms";

    static SegmentEngineConfig from(PluginConfig config) {
        int threads = config.getInt(COMMITTER_THREADS, 2);
        if (threads < 1) {
            throw new PluginConfigException(COMMITTER_THREADS, "must be at least 1, got " + threads);
        }
        long delay = config.getLong(CLOSE_DELAY, 60_000L);
        if (delay < 0) {
            throw new PluginConfigException(CLOSE_DELAY, "must not be negative, got " + delay);
        }
        return new SegmentEngineConfig(threads, delay);
    }
}
