package io.kaas.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.plugin.SpiVersion;
import io.kaas.api.storage.StorageEngineProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Plugins that declare their backends ({@code plugin.backends}) are loaded only when one of them is selected. */
class PluginSelectionTest {
    @TempDir
    Path plugins;
    @TempDir
    Path build;

    private static final BackendSelection MEMORY = BackendSelection.of(Map.of("storage.engine", "memory",
            "cluster.store", "test-store"));

    @Test
    void aZipThatDeclaresOnlyBackendsNobodySelectsIsNeitherExpandedNorLoaded() throws IOException {
        zipPlugin("zipped", "storage.engine:zipped");

        BackendCatalog catalog = BackendCatalog.discover(plugins, MEMORY);

        assertThat(catalog.all()).noneSatisfy(found -> assertThat(found.name()).isEqualTo("zipped"));
        assertThat(catalog.select(StorageEngineProvider.class, "storage.engine", "memory")).isNotNull();
        assertThat(plugins.resolve(".work")).as("nothing expanded").doesNotExist();
    }

    @Test
    void aNameThatMatchesNothingListsTheBackendsOfPluginsNotLoadedToo() throws IOException {
        zipPlugin("zipped", "storage.engine:zipped");

        BackendCatalog catalog = BackendCatalog.discover(plugins, BackendSelection.of(Map.of("storage.engine", "zipd")));

        assertThatThrownBy(() -> catalog.select(StorageEngineProvider.class, "storage.engine", "zipd"))
                .hasMessage("No storage engine named 'zipd' (storage.engine); available: future, memory, twin, zipped");
    }

    @Test
    void aDeclaringPluginIsLoadedWhenOneOfItsBackendsIsSelected() throws IOException {
        zipPlugin("zipped", "storage.engine:zipped");

        BackendCatalog catalog = BackendCatalog.discover(plugins,
                BackendSelection.of(Map.of("storage.engine", "zipped", "cluster.store", "test-store")));

        assertThat(catalog.select(StorageEngineProvider.class, "storage.engine", "zipped").name()).isEqualTo("zipped");
        assertThat(plugins.resolve(".work/zipped")).isDirectory();
    }

    @Test
    void aJarDeclaresItsBackendsInItsManifest() throws IOException {
        TestPlugins.jar().pluginId("jarred", "1").manifest("Plugin-Backends", "storage.engine:jarred")
                .source("jarred.Provider", TestPlugins.engineProvider("jarred", "jarred", ""))
                .service(StorageEngineProvider.class, "jarred.Provider")
                .writeTo(plugins.resolve("jarred.jar"));

        assertThat(BackendCatalog.discover(plugins, MEMORY).all())
                .noneSatisfy(found -> assertThat(found.name()).isEqualTo("jarred"));
        assertThat(BackendCatalog.discover(plugins, BackendSelection.of(Map.of("storage.engine", "jarred")))
                .select(StorageEngineProvider.class, "storage.engine", "jarred").name()).isEqualTo("jarred");
    }

    @Test
    void aPluginThatDeclaresNothingIsLoadedWhateverIsSelected() throws IOException {
        zipPlugin("zipped", null);

        assertThat(BackendCatalog.discover(plugins, MEMORY).all())
                .anySatisfy(found -> assertThat(found.name()).isEqualTo("zipped"));
    }

    @Test
    void aPluginThatProvidesMoreThanItDeclaresIsRefused() throws IOException {
        zipPlugin("zipped", "cluster.store:test-store-2,storage.engine:other");

        assertThatThrownBy(() -> BackendCatalog.discover(plugins,
                BackendSelection.of(Map.of("storage.engine", "other"))))
                .isInstanceOf(BackendSelectionException.class)
                .hasMessageStartingWith("Plugin zipped.zip in " + plugins.toAbsolutePath() + ": plugin zipped declares "
                        + "storage.engine [other] in plugin.backends/Plugin-Backends but provides [zipped]; declare every"
                        + " backend it provides");
    }

    @Test
    void aMalformedDeclarationIsRefusedWithItsFormatWhetherOrNotItIsSelected() throws IOException {
        zipPlugin("zipped", "storage.engine");

        assertThatThrownBy(() -> BackendCatalog.discover(plugins, MEMORY))
                .isInstanceOf(BackendSelectionException.class)
                .hasMessageStartingWith("Plugin zipped.zip in " + plugins.toAbsolutePath() + ": declares 'storage.engine'"
                        + " as its backends: each entry is <config key>:<name>, e.g. storage.engine:rocksdb");
    }

    @Test
    void aDeclarationOfAnUnknownKindIsRefused() throws IOException {
        zipPlugin("zipped", "engine:zipped");

        assertThatThrownBy(() -> BackendCatalog.discover(plugins, MEMORY))
                .hasMessageContaining("declares a backend of an unknown kind 'engine' (engine:zipped); the kinds are "
                        + "authorizer, cluster.store, storage.engine");
    }

    @Test
    void aZipThatCannotBeReadIsReportedEvenWhenNothingWouldSelectIt() throws IOException {
        Files.write(plugins.resolve("torn.zip"), new byte[] {'P', 'K', 3, 4, 0});

        assertThatThrownBy(() -> BackendCatalog.discover(plugins, MEMORY))
                .hasMessageStartingWith("Plugin torn.zip in " + plugins.toAbsolutePath() + ": cannot be expanded: ");
    }

    @Test
    void theSelectionSelectsByKeyAndName() {
        BackendSelection selection = BackendSelection.of(Map.of("cluster.store", "files"));
        assertThat(selection.selects("cluster.store", "files")).isTrue();
        assertThat(selection.selects("cluster.store", "zookeeper")).isFalse();
        assertThat(selection.selects("storage.engine", "segments")).isFalse();
        assertThat(BackendSelection.every().selects("storage.engine", "anything")).isTrue();
    }

    /** A zip plugin providing the storage engine {@code name}, declaring {@code backends} (none when null). */
    private void zipPlugin(String name, String backends) throws IOException {
        Path main = TestPlugins.jar()
                .source(name + ".Provider", TestPlugins.engineProvider(name, name, ""))
                .service(StorageEngineProvider.class, name + ".Provider")
                .writeTo(build.resolve(name + ".jar"));
        Map<String, String> properties = new LinkedHashMap<>(Map.of("plugin.id", name, "plugin.version", "1.0",
                "plugin.requires", "^" + SpiVersion.MAJOR + ".0.0"));
        if (backends != null) {
            properties.put("plugin.backends", backends);
        }
        TestPlugins.zip(plugins.resolve(name + ".zip"), properties, List.of(main));
    }
}
