package io.kaas.example.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.storage.AppendResult;
import io.kaas.api.storage.EngineContext;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.StorageEngine;
import io.kaas.api.storage.StorageEngineProvider;
import io.kaas.plugin.tck.Slices;
import io.kaas.plugin.tck.TestBatches;
import io.kaas.plugins.BackendCatalog;
import io.kaas.plugins.BackendSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built plugin zip, dropped into a temporary {@code plugins/} and loaded by the real plugin host.
 * This test's class path holds no main classes of this module (see the Failsafe configuration), so
 * the engine can only come from the zip, through the plugin's own class loader.
 */
class MemoryEnginePluginIT {
    @TempDir
    Path plugins;
    @TempDir
    Path data;

    @Test
    void theBuiltZipIsFoundByThePluginHostAndServesAppendReadAndReopen() throws Exception {
        Path zip = Path.of(System.getProperty("kaas.plugin.zip"));
        Files.copy(zip, plugins.resolve(zip.getFileName()));

        BackendCatalog catalog = BackendCatalog.discover(List.of(BackendSource.plugins(plugins)));
        StorageEngineProvider provider = catalog.select(StorageEngineProvider.class, "storage.engine", "memory");

        assertThatThrownBy(() -> Class.forName("io.kaas.example.engine.MemoryEngineProvider"))
                .as("the engine is not on the test class path").isInstanceOf(ClassNotFoundException.class);
        assertThat(catalog.all()).singleElement().satisfies(found -> {
            assertThat(found.name()).isEqualTo("memory");
            assertThat(found.version()).isEqualTo(System.getProperty("project.version", found.version()));
            assertThat(found.origin()).startsWith("plugin kaas-example-engine ").endsWith(zip.getFileName() + ")");
        });

        PartitionKey key = new PartitionKey("smoke", UUID.randomUUID(), 0);
        byte[] sent = TestBatches.batch().records(3).valueSize(40).bytes();
        try (StorageEngine engine = provider.open(new EngineContext(data, PluginConfig.empty(), 1, Clock.systemUTC()))) {
            PartitionLog log = engine.openPartition(key, LogConfig.defaults());
            AppendResult result = log.append(TestBatches.batch().records(3).valueSize(40).build(), true).get();
            assertThat(result.baseOffset()).isZero();
            assertThat(result.lastOffset()).isEqualTo(2);

            PartitionLog reopened = engine.openPartition(key, LogConfig.defaults());
            assertThat(reopened).isSameAs(log);
            byte[] read = Slices.bytes(reopened.read(1, 1 << 20, reopened.offsets().highWatermark(), true));
            assertThat(read).hasSameSizeAs(sent);
            assertThat(reopened.offsets().highWatermark()).isEqualTo(3);
        }
    }
}
