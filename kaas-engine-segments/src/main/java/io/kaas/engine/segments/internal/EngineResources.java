package io.kaas.engine.segments.internal;

import java.util.concurrent.Executor;

/** What every partition of one engine shares: its settings, the committer pool and the deferred closer. */
record EngineResources(SegmentEngineConfig config, Executor committers, DeferredCloser closer,
                       io.kaas.api.storage.EngineStats stats) {
}
