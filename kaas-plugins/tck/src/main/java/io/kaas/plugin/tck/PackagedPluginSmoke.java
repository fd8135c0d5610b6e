package io.kaas.plugin.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.record.ProducedBatches;
import io.kaas.api.storage.AppendResult;
import io.kaas.api.storage.EngineContext;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.StorageEngine;
import io.kaas.api.storage.StorageEngineProvider;
import io.kaas.plugins.BackendCatalog;
import io.kaas.plugins.BackendSource;
import io.kaas.plugins.FoundBackend;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * The smoke test of a packaged storage-engine plugin: copies the built plugin zip into a temporary
 * {@code plugins/}, boots the real plugin host on it ({@code BackendCatalog} over
 * {@code BackendSource.plugins}), checks the engine is found there and only there (not on the test
 * class path), then appends a batch, reads it back, reopens the partition and, for a persistent engine,
 * closes and reopens the whole engine and reads again.
 *
 * <p>Run it from a Failsafe {@code *IT} whose class path holds none of the plugin's main classes (set
 * {@code classesDirectory} to an empty directory and exclude the plugin's own dependencies), with the
 * zip's path in the {@code kaas.plugin.zip} system property. Needs {@code kaas-plugins} (the host) in
 * test scope next to this kit.
 *
 * <pre>{@code
 * @Test
 * void theBuiltZipIsFoundByThePluginHostAndServesAppendReadAndReopen(@TempDir Path plugins, @TempDir Path data)
 *         throws Exception {
 *     PackagedPluginSmoke.of(PackagedPluginSmoke.builtZip(), "my-plugin-id", "my-engine",
 *                     "com.example.engine.MyEngineProvider")
 *             .persistent(true)
 *             .run(plugins, data);
 * }
 * }</pre>
 */
public final class PackagedPluginSmoke {
    /** The system property that carries the built zip's path. */
    public static final String ZIP_PROPERTY = "kaas.plugin.zip";

    private static final int RECORDS = 3;
    private static final int VALUE_SIZE = 40;

    private final Path zip;
    private final String pluginId;
    private final String engineName;
    private final String providerClass;
    private PluginConfig config = PluginConfig.empty();
    private boolean persistent;
    private FoundBackend found;

    private PackagedPluginSmoke(Path zip, String pluginId, String engineName, String providerClass) {
        this.zip = Objects.requireNonNull(zip, "zip");
        this.pluginId = Objects.requireNonNull(pluginId, "pluginId");
        this.engineName = Objects.requireNonNull(engineName, "engineName");
        this.providerClass = Objects.requireNonNull(providerClass, "providerClass");
    }

    /**
     * A smoke run of the zip at {@code zip}, whose descriptor has id {@code pluginId}, serving the
     * storage engine named {@code engineName} (its {@code storage.engine} value) implemented by
     * {@code providerClass}, which must not be loadable from the test class path.
     */
    public static PackagedPluginSmoke of(Path zip, String pluginId, String engineName, String providerClass) {
        return new PackagedPluginSmoke(zip, pluginId, engineName, providerClass);
    }

    /** The built zip, from the {@value #ZIP_PROPERTY} system property the build sets for Failsafe. */
    public static Path builtZip() {
        String zip = System.getProperty(ZIP_PROPERTY);
        assertThat(zip).as("system property " + ZIP_PROPERTY + " (set it in the Failsafe configuration)").isNotBlank();
        return Path.of(zip);
    }

    /** The engine's configuration; empty by default. */
    public PackagedPluginSmoke config(PluginConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        return this;
    }

    /** Whether the engine keeps data across close and reopen (and so must be checked for it); off by default. */
    public PackagedPluginSmoke persistent(boolean persistent) {
        this.persistent = persistent;
        return this;
    }

    /**
     * Runs the smoke test with {@code pluginsDir} as the host's plugins directory and {@code dataDir} as the engine's.
     *
     * @return the backend as the plugin host found it (name, version, origin), for further assertions
     */
    public FoundBackend run(Path pluginsDir, Path dataDir) throws Exception {
        found = null;
        StorageEngineProvider provider = discover(pluginsDir);
        EngineContext context = new EngineContext(dataDir, config, 1, Clock.systemUTC());
        PartitionKey key = new PartitionKey("smoke", UUID.randomUUID(), 0);
        int sentSize = TestBatches.batch().records(RECORDS).valueSize(VALUE_SIZE).bytes().length;
        try (StorageEngine engine = provider.open(context)) {
            PartitionLog log = engine.openPartition(key, LogConfig.defaults());
            AppendResult result = log.append(ProducedBatches.validate(TestBatches.batch().records(RECORDS).valueSize(VALUE_SIZE).build()), true)
                    .get();
            assertThat(result.baseOffset()).isZero();
            assertThat(result.lastOffset()).isEqualTo(RECORDS - 1);

            PartitionLog reopened = engine.openPartition(key, LogConfig.defaults());
            assertThat(reopened).as("openPartition again on the open engine").isSameAs(log);
            assertReadsBack(reopened, sentSize, "after reopening the partition");
        }
        if (persistent) {
            try (StorageEngine engine = provider.open(context)) {
                assertReadsBack(engine.openPartition(key, LogConfig.defaults()), sentSize, "after reopening the engine");
            }
        }
        return found;
    }

    private StorageEngineProvider discover(Path pluginsDir) throws Exception {
        Files.copy(zip, pluginsDir.resolve(zip.getFileName()));
        BackendCatalog catalog = BackendCatalog.discover(List.of(BackendSource.plugins(pluginsDir)));
        StorageEngineProvider provider = catalog.select(StorageEngineProvider.class, "storage.engine", engineName);

        assertThatThrownBy(() -> Class.forName(providerClass))
                .as("the engine is not on the test class path").isInstanceOf(ClassNotFoundException.class);
        assertThat(catalog.all()).singleElement().satisfies(f -> {
            assertThat(f.name()).isEqualTo(engineName);
            assertThat(f.version()).isEqualTo(System.getProperty("project.version", f.version()));
            assertThat(f.origin()).startsWith("plugin " + pluginId + " ").endsWith(zip.getFileName() + ")");
        });
        found = catalog.all().get(0);
        return provider;
    }

    private static void assertReadsBack(PartitionLog log, int sentSize, String when) throws Exception {
        assertThat(log.offsets().highWatermark()).as("high watermark " + when).isEqualTo(RECORDS);
        byte[] read = Slices.bytes(log.read(1, 1 << 20, log.offsets().highWatermark(), true));
        assertThat(read).as("the batch read " + when).hasSize(sentSize);
    }
}
