package io.kaas.example.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.plugin.tck.PackagedPluginSmoke;
import io.kaas.plugins.FoundBackend;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built plugin zip, dropped into a temporary {@code plugins/} and loaded by the real plugin host.
 * This test's class path holds no main classes of this module (see the Failsafe configuration), so
 * the engine can only come from the zip, through the plugin's own class loader. The engine keeps
 * nothing across a restart, so the smoke test reopens the partition but not the engine.
 */
class MemoryEnginePluginIT {
    @TempDir
    Path plugins;
    @TempDir
    Path data;

    @Test
    void theBuiltZipIsFoundByThePluginHostAndServesAppendReadAndReopen() throws Exception {
        FoundBackend found = PackagedPluginSmoke.of(PackagedPluginSmoke.builtZip(), "kaas-example-engine", "memory",
                        "io.kaas.example.engine.MemoryEngineProvider")
                .run(plugins, data);
        assertThat(found.name()).isEqualTo("memory");
    }
}
