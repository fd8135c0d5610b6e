package io.kaas.plugin.tck;

import io.kaas.api.storage.StorageEngineProvider;
import io.kaas.engine.segments.SegmentEngineProvider;

/**
 * The TCK's own check against the segment engine, which does not depend on the kit. Zero-copy
 * reads: the engine answers with file slices.
 */
class SegmentEngineTckTest extends StorageEngineTck {
    @Override
    protected StorageEngineProvider provider() {
        return new SegmentEngineProvider();
    }

    @Override
    protected boolean supports(EngineCapability capability) {
        return capability == EngineCapability.FILE_SLICES || capability == EngineCapability.COMPACTION
                || capability.requiredByDefault();
    }
}
