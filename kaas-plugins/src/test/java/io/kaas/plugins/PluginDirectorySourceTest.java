package io.kaas.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.cluster.ClusterStateStoreProvider;
import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.plugin.SpiVersion;
import io.kaas.api.record.ProducedBatches;
import io.kaas.api.record.RecordBatches;
import io.kaas.api.storage.EngineContext;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.StorageEngine;
import io.kaas.api.storage.StorageEngineProvider;
import io.kaas.plugins.internal.PluginProvider;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The PF4J plugin source, end to end over plugin jars and zips built by the test. */
class PluginDirectorySourceTest {
    @TempDir
    Path plugins;
    @TempDir
    Path build;
    @TempDir
    Path data;

    /** An engine whose every method fails unless the context class loader is the plugin's. */
    private static final String CHECKING_ENGINE = """
            package tccl;
            import io.kaas.api.storage.*;
            import java.nio.ByteBuffer;
            import java.util.*;
            import java.util.concurrent.CompletableFuture;
            public class Provider implements StorageEngineProvider {
              static void check() {
                ClassLoader tccl = Thread.currentThread().getContextClassLoader();
                if (tccl != Provider.class.getClassLoader()) throw new IllegalStateException("context class loader is " + tccl);
              }
              public String name() { check(); return "checking"; }
              public String version() { check(); return "7.0"; }
              public int spiVersion() { check(); return io.kaas.api.plugin.SpiVersion.MAJOR; }
              public StorageEngine open(EngineContext c) { check(); return new Engine(); }
              static class Engine implements StorageEngine {
                final Map<PartitionKey, PartitionLog> logs = new HashMap<>();
                public void checkConfig(LogConfig c) { check(); }
                public Optional<java.nio.file.Path> logDir() { check(); return Optional.empty(); }
                public PartitionLog openPartition(PartitionKey k, LogConfig c) { check(); return logs.computeIfAbsent(k, Log::new); }
                public void deletePartition(PartitionKey k) { check(); logs.remove(k); }
                public void closePartition(PartitionKey k) { check(); logs.remove(k); }
                public void close() { check(); }
              }
              static class Log implements PartitionLog {
                final PartitionKey key;
                Log(PartitionKey key) { this.key = key; }
                public PartitionKey key() { check(); return key; }
                public CompletableFuture<AppendResult> append(io.kaas.api.record.ProducedBatches b, boolean d) { check(); return CompletableFuture.completedFuture(new AppendResult(0, 0, -1, 0)); }
                public ReadResult read(long o, int m, long x, boolean one) { check(); return new ReadResult(List.of(), offsets()); }
                public LogOffsets offsets() { check(); return new LogOffsets(0, 0, 0); }
                public long sizeInBytes() { check(); return 0; }
                public List<io.kaas.api.storage.AbortedTransaction> abortedTransactions(long f, long t) { check(); return List.of(); }
                public List<io.kaas.api.storage.ProducerState> producers() { check(); return List.of(); }
                public Optional<TimestampOffset> offsetForTimestamp(long t) { check(); return Optional.empty(); }
                public Optional<TimestampOffset> maxTimestamp() { check(); return Optional.empty(); }
                public CompletableFuture<Long> deleteRecordsBefore(long o) { check(); return CompletableFuture.completedFuture(0L); }
                public void updateConfig(LogConfig c) { check(); }
              }
            }
            """;

    @Test
    void aJarPluginsProviderComesFromItsOwnClassLoaderAndIsLoggedWithItsOrigin() throws IOException {
        TestPlugins.jar().pluginId("jarred-plugin", "1.4.0")
                .source("jarred.Provider", TestPlugins.engineProvider("jarred", "jarred", ""))
                .service(StorageEngineProvider.class, "jarred.Provider")
                .writeTo(plugins.resolve("jarred.jar"));

        BackendCatalog catalog = BackendCatalog.discover(plugins);
        StorageEngineProvider provider = catalog.select(StorageEngineProvider.class, "storage.engine", "jarred");

        Class<?> own = PluginProvider.implementation(provider);
        assertThat(own.getName()).isEqualTo("jarred.Provider");
        assertThat(own.getClassLoader()).isNotSameAs(getClass().getClassLoader());
        assertThat(own.getClassLoader().getClass().getSimpleName()).isEqualTo("IsolatedPluginClassLoader");
        assertThat(catalog.all()).anySatisfy(found -> {
            assertThat(found.name()).isEqualTo("jarred");
            assertThat(found.version()).isEqualTo("1.4.0");
            assertThat(found.origin()).isEqualTo("plugin jarred-plugin 1.4.0 (" + plugins.resolve("jarred.jar").toAbsolutePath() + ")");
        });
    }

    @Test
    void aZipPluginLoadsEveryJarOfItsLib() throws IOException {
        Path helper = TestPlugins.jar()
                .source("helper.Names", "package helper; public class Names { public static String name() { return \"zipped\"; } }")
                .writeTo(build.resolve("helper.jar"));
        Path main = TestPlugins.jar().classPath(helper)
                .source("zipped.Provider", TestPlugins.engineProvider("zipped", "x", "").replace("return \"x\"", "return helper.Names.name()"))
                .service(StorageEngineProvider.class, "zipped.Provider")
                .writeTo(build.resolve("zipped.jar"));
        TestPlugins.zip(plugins.resolve("zipped-1.0.zip"), Map.of("plugin.id", "zipped", "plugin.version", "1.0",
                "plugin.requires", "^" + SpiVersion.MAJOR + ".0.0"), List.of(main, helper));

        BackendCatalog catalog = BackendCatalog.discover(plugins);

        assertThat(catalog.select(StorageEngineProvider.class, "storage.engine", "zipped").name()).isEqualTo("zipped");
        assertThat(catalog.all()).anySatisfy(found -> assertThat(found.origin())
                .isEqualTo("plugin zipped 1.0 (" + plugins.resolve("zipped-1.0.zip").toAbsolutePath() + ")"));
    }

    @Test
    void aPluginThatBundlesKaasApiStillUsesTheHostsApiClasses() throws IOException {
        Path api = TestPlugins.asJar(TestPlugins.kaasApi(), build.resolve("kaas-api-copy.jar"));
        Path main = TestPlugins.jar()
                .source("bundling.Provider", TestPlugins.engineProvider("bundling", "bundling",
                        "  public static Class<?> spi() { return StorageEngineProvider.class; }\n"))
                .service(StorageEngineProvider.class, "bundling.Provider")
                .writeTo(build.resolve("bundling.jar"));
        TestPlugins.zip(plugins.resolve("bundling.zip"), Map.of("plugin.id", "bundling", "plugin.version", "1"),
                List.of(api, main));

        StorageEngineProvider provider = BackendCatalog.discover(plugins)
                .select(StorageEngineProvider.class, "storage.engine", "bundling");

        Class<?> own = PluginProvider.implementation(provider);
        ClassLoader pluginLoader = own.getClassLoader();
        assertThat(pluginLoader.getResource("io/kaas/api/storage/StorageEngineProvider.class"))
                .isEqualTo(StorageEngineProvider.class.getClassLoader().getResource("io/kaas/api/storage/StorageEngineProvider.class"));
        assertThat(invokeStatic(own, "spi")).isSameAs(StorageEngineProvider.class);
        assertThat(StorageEngineProvider.class.isAssignableFrom(own)).isTrue();
    }

    /** A v2 batch header with no records and a valid CRC32C. */
    private static ByteBuffer emptyBatch() {
        ByteBuffer b = ByteBuffer.allocate(RecordBatches.HEADER_SIZE);
        b.putInt(RecordBatches.LENGTH, RecordBatches.HEADER_SIZE - RecordBatches.LOG_OVERHEAD)
                .put(RecordBatches.MAGIC, RecordBatches.MAGIC_V2).putLong(RecordBatches.PRODUCER_ID, -1)
                .putInt(RecordBatches.BASE_SEQUENCE, -1);
        b.putInt(RecordBatches.CRC, (int) RecordBatches.crc(b, 0, RecordBatches.HEADER_SIZE));
        return b;
    }

    @Test
    void everyCallIntoThePluginRunsWithThePluginsContextClassLoader() throws Exception {
        TestPlugins.jar().pluginId("checking", "7.0").source("tccl.Provider", CHECKING_ENGINE)
                .service(StorageEngineProvider.class, "tccl.Provider")
                .writeTo(plugins.resolve("checking.jar"));
        ClassLoader before = Thread.currentThread().getContextClassLoader();

        StorageEngineProvider provider = BackendCatalog.discover(plugins)
                .select(StorageEngineProvider.class, "storage.engine", "checking");
        assertThat(provider.version()).isEqualTo("7.0");
        PartitionKey key = new PartitionKey("t", UUID.randomUUID(), 0);
        try (StorageEngine engine = provider.open(new EngineContext(data, PluginConfig.empty(), 1, Clock.systemUTC()))) {
            PartitionLog log = engine.openPartition(key, LogConfig.defaults());
            assertThat(engine.openPartition(key, LogConfig.defaults())).isSameAs(log);
            assertThat(log.key()).isEqualTo(key);
            engine.checkConfig(LogConfig.defaults());
            log.append(ProducedBatches.validate(emptyBatch()), true).join();
            log.read(0, 100, 0, true);
            log.offsets();
            log.offsetForTimestamp(0);
            log.maxTimestamp();
            log.deleteRecordsBefore(0).join();
            log.updateConfig(LogConfig.defaults());
            engine.deletePartition(key);
            assertThat(engine.openPartition(key, LogConfig.defaults())).isNotSameAs(log);
        }
        assertThat(Thread.currentThread().getContextClassLoader()).isSameAs(before);
    }

    @Test
    void aBrokenPluginJarFailsDiscoveryWithOneLineNamingItAndTheBackendsAvailable() throws IOException {
        Files.write(plugins.resolve("broken.jar"), new byte[] {1, 2, 3, 4});

        assertThatThrownBy(() -> BackendCatalog.discover(plugins))
                .isInstanceOf(BackendSelectionException.class)
                .hasMessageStartingWith("Plugin broken.jar in " + plugins.toAbsolutePath() + ": cannot be loaded: cannot read its manifest")
                .hasMessageContaining("; available: storage engines: future, memory, twin; cluster-state stores: test-store")
                .hasMessageNotContaining("\n");
    }

    @Test
    void aJarWithoutAPluginIdSaysWhatIsMissing() throws IOException {
        TestPlugins.jar().source("plain.Provider", TestPlugins.engineProvider("plain", "plain", ""))
                .service(StorageEngineProvider.class, "plain.Provider")
                .writeTo(plugins.resolve("plain.jar"));

        assertThatThrownBy(() -> BackendCatalog.discover(plugins))
                .hasMessageContaining("Plugin plain.jar in ")
                .hasMessageContaining("its manifest has no Plugin-Id");
    }

    @Test
    void aZipWithoutPluginPropertiesSaysWhatIsMissing() throws IOException {
        Path main = TestPlugins.jar().source("z.Provider", TestPlugins.engineProvider("z", "z", ""))
                .service(StorageEngineProvider.class, "z.Provider").writeTo(build.resolve("z.jar"));
        TestPlugins.zip(plugins.resolve("z.zip"), Map.of(), List.of(main));

        assertThatThrownBy(() -> BackendCatalog.discover(plugins))
                .hasMessageContaining("Plugin z.zip in ")
                .hasMessageContaining("plugin.id");
    }

    @Test
    void aPluginBuiltForAnIncompatibleSpiIsRefusedAtLoad() throws IOException {
        TestPlugins.jar().pluginId("future-plugin", "9.0").manifest("Plugin-Requires", "^" + (SpiVersion.MAJOR + 1) + ".0.0")
                .source("f.Provider", TestPlugins.engineProvider("f", "f", ""))
                .service(StorageEngineProvider.class, "f.Provider")
                .writeTo(plugins.resolve("future.jar"));

        assertThatThrownBy(() -> BackendCatalog.discover(plugins))
                .isInstanceOf(BackendSelectionException.class)
                .hasMessageContaining("Plugin future.jar in ")
                .hasMessageContaining("plugin future-plugin was built for kaas SPI '^" + (SpiVersion.MAJOR + 1)
                        + ".0.0', but this broker has SPI version " + SpiVersion.MAJOR + ".0.0")
                .hasMessageNotContaining("\n");
    }

    @Test
    void aProviderReportingAnIncompatibleSpiVersionIsRefusedAtLoad() throws IOException {
        TestPlugins.jar().pluginId("old-plugin", "0.1")
                .source("o.Provider", TestPlugins.engineProvider("o", "o", "  public int spiVersion() { return 0; }\n"))
                .service(StorageEngineProvider.class, "o.Provider")
                .writeTo(plugins.resolve("old.jar"));

        assertThatThrownBy(() -> BackendCatalog.discover(plugins))
                .hasMessageContaining("plugin old-plugin was built for kaas SPI version 0, but this broker has SPI version "
                        + SpiVersion.MAJOR);
    }

    @Test
    void aProviderThatCannotBeConstructedFailsStartUp() throws IOException {
        TestPlugins.jar().pluginId("throwing", "1")
                .source("t.Provider", TestPlugins.engineProvider("t", "t",
                        "  public Provider() { throw new IllegalStateException(\"no licence key\"); }\n"))
                .service(StorageEngineProvider.class, "t.Provider")
                .writeTo(plugins.resolve("throwing.jar"));

        assertThatThrownBy(() -> BackendCatalog.discover(plugins))
                .hasMessageContaining("plugin throwing failed to start: StorageEngineProvider t.Provider cannot be constructed: no licence key");
    }

    @Test
    void aListedClassThatIsNotAProviderIsReported() throws IOException {
        TestPlugins.jar().pluginId("wrong", "1")
                .source("w.NotAProvider", "package w; public class NotAProvider { }")
                .service(StorageEngineProvider.class, "w.NotAProvider", "w.Missing")
                .writeTo(plugins.resolve("wrong.jar"));

        assertThatThrownBy(() -> BackendCatalog.discover(plugins))
                .hasMessageContaining("plugin wrong lists w.NotAProvider in META-INF/services/" + StorageEngineProvider.class.getName()
                        + " but it does not implement the host's " + StorageEngineProvider.class.getName())
                .hasMessageContaining("and 1 more problem(s)");
    }

    @Test
    void registrationsThatDisagreeBetweenModuleInfoAndServicesAreRefused() throws IOException {
        TestPlugins.jar().pluginId("split", "1").modular()
                .source("module-info", "module split { requires io.kaas.api;"
                        + " provides io.kaas.api.storage.StorageEngineProvider with s.A; }")
                .source("s.A", TestPlugins.engineProvider("s", "a", "").replace("class Provider", "class A"))
                .source("s.B", TestPlugins.engineProvider("s", "b", "").replace("class Provider", "class B"))
                .service(StorageEngineProvider.class, "s.B")
                .writeTo(plugins.resolve("split.jar"));

        assertThatThrownBy(() -> BackendCatalog.discover(plugins))
                .hasMessageContaining("plugin split is packaged inconsistently: split.jar registers its providers two different ways: META-INF/services lists {"
                        + StorageEngineProvider.class.getName() + "=[s.B]} but module-info (split) provides {"
                        + StorageEngineProvider.class.getName() + "=[s.A]}");
    }

    @Test
    void twoPluginsWithOneNameAreRefusedWhenThatNameIsSelected() throws IOException {
        for (String id : List.of("one", "two")) {
            TestPlugins.jar().pluginId(id, "1")
                    .source(id + ".Provider", TestPlugins.engineProvider(id, "same", ""))
                    .service(StorageEngineProvider.class, id + ".Provider")
                    .writeTo(plugins.resolve(id + ".jar"));
        }

        BackendCatalog catalog = BackendCatalog.discover(plugins);

        assertThatThrownBy(() -> catalog.select(StorageEngineProvider.class, "storage.engine", "same"))
                .hasMessageStartingWith("Storage engine name 'same' (storage.engine) is claimed by 2 backends: one.Provider from plugin one 1 (")
                .hasMessageContaining("two.Provider from plugin two 1 (");
    }

    @Test
    void anUnknownNameListsBuiltInAndPluginNames() throws IOException {
        TestPlugins.jar().pluginId("jarred-plugin", "1")
                .source("jarred.Provider", TestPlugins.engineProvider("jarred", "jarred", ""))
                .service(StorageEngineProvider.class, "jarred.Provider")
                .writeTo(plugins.resolve("jarred.jar"));

        assertThatThrownBy(() -> BackendCatalog.discover(plugins).select(StorageEngineProvider.class, "storage.engine", "rocksdb"))
                .hasMessage("No storage engine named 'rocksdb' (storage.engine); available: future, jarred, memory, twin");
    }

    @Test
    void aMissingPluginsDirectoryHoldsNoPlugins() {
        BackendCatalog catalog = BackendCatalog.discover(plugins.resolve("absent"));
        assertThat(catalog.select(ClusterStateStoreProvider.class, "cluster.store", "test-store")).isNotNull();
    }

    private static Object invokeStatic(Class<?> type, String method) {
        try {
            return type.getMethod(method).invoke(null);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
