package io.kaas.engine.rocksdb;

import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.storage.StorageEngineProvider;
import io.kaas.plugin.tck.StorageEngineTck;
import java.util.Map;

/** The RocksDB engine against the plugin TCK (buffer slices only; every other capability). */
class RocksDbEngineTckTest extends StorageEngineTck {
    @Override
    protected StorageEngineProvider provider() {
        return new RocksDbEngineProvider();
    }

    @Override
    protected PluginConfig config() {
        // Small caches keep the many short-lived test databases light.
        return PluginConfig.of(Map.of("block.cache.bytes", "1048576", "write.buffer.bytes", "1048576"));
    }
}
