package io.kaas.engine.segments;

import io.kaas.api.storage.StorageEngineProvider;
import io.kaas.plugin.tck.EngineCapability;
import io.kaas.plugin.tck.StorageEngineTck;

/** The segment engine against the plugin TCK. Zero-copy reads: the engine answers with file slices. */
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
