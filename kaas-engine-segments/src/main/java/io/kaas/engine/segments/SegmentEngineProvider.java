package io.kaas.engine.segments;

import io.kaas.api.plugin.SpiVersion;
import io.kaas.api.storage.EngineContext;
import io.kaas.api.storage.StorageEngine;
import io.kaas.api.storage.StorageEngineProvider;
import io.kaas.engine.segments.internal.SegmentEngine;
import java.io.IOException;
import java.util.Set;

/** Finds the segment engine by the name {@code segments}. Cheap to construct; does no I/O. */
public final class SegmentEngineProvider implements StorageEngineProvider {
    /** The value of {@code storage.engine} that selects this engine. */
    public static final String NAME = "segments";

    public SegmentEngineProvider() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public StorageEngine open(EngineContext context) throws IOException {
        return SegmentEngine.open(context);
    }

    @Override
    public Set<String> configKeys() {
        return SegmentEngine.configKeys();
    }

    /** Several brokers may share a data directory: partitions open at leader epochs, fenced writers are never served. */
    @Override
    public boolean sharedVolume() {
        return true;
    }

    @Override
    public int spiVersion() {
        return SpiVersion.MAJOR;
    }
}
