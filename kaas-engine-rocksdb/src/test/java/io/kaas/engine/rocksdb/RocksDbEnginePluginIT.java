package io.kaas.engine.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.plugin.PluginConfig;
import io.kaas.plugin.tck.PackagedPluginSmoke;
import io.kaas.plugins.FoundBackend;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built plugin zip, dropped into a temporary {@code plugins/} and loaded by the real plugin host.
 * This test's class path holds no main classes of this module (see the Failsafe configuration), so
 * the engine and rocksdbjni can only come from the zip, through the plugin's own class loader.
 */
class RocksDbEnginePluginIT {
    @TempDir
    Path plugins;
    @TempDir
    Path data;

    @Test
    void theBuiltZipIsFoundByThePluginHostAndServesAppendReadAndReopen() throws Exception {
        FoundBackend found = PackagedPluginSmoke.of(PackagedPluginSmoke.builtZip(), "kaas-engine-rocksdb", "rocksdb",
                        "io.kaas.engine.rocksdb.RocksDbEngineProvider")
                .config(PluginConfig.of(Map.of("block.cache.bytes", "1048576", "write.buffer.bytes", "1048576")))
                .persistent(true)
                .run(plugins, data);
        assertThat(found.name()).isEqualTo("rocksdb");
    }
}
