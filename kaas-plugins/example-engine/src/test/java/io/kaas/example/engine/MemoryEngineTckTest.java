package io.kaas.example.engine;

import io.kaas.api.storage.StorageEngineProvider;
import io.kaas.plugin.tck.EngineCapability;
import io.kaas.plugin.tck.StorageEngineTck;

/**
 * The memory engine against the plugin TCK. It declares what it does not do: keep data across a
 * restart, hand out file slices, look up offsets by timestamp, compact; the TCK checks those are refused.
 */
class MemoryEngineTckTest extends StorageEngineTck {
    @Override
    protected StorageEngineProvider provider() {
        return new MemoryEngineProvider();
    }

    @Override
    protected boolean supports(EngineCapability capability) {
        switch (capability) {
            case PERSISTENCE:
            case FILE_SLICES:
            case TIMESTAMP_INDEX:
            case COMPACTION:
                return false;
            default:
                return true; // IDEMPOTENCE, LOG_APPEND_TIME
        }
    }
}
