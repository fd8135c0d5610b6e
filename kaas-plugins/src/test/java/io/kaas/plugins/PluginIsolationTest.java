package io.kaas.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonFactory;
import io.kaas.api.storage.StorageEngineProvider;
import io.kaas.plugins.internal.PluginProvider;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A plugin sees of the host only the SPI ({@code io.kaas.api.}) and slf4j: the host's Netty, Jackson,
 * PF4J, logging back-end and plugin host are on the test's class path, but not the plugin's.
 */
class PluginIsolationTest {
    @TempDir
    Path plugins;
    @TempDir
    Path build;

    /**
     * A provider compiled against Netty, Jackson and slf4j besides kaas-api, that reports what its own
     * class loader finds.
     */
    private static final String PROBE = """
              public static Object load(String name) {
                try { return Class.forName(name, false, Provider.class.getClassLoader()); }
                catch (ClassNotFoundException e) { return e; }
              }
              public static Object linkJackson() {
                try { return new com.fasterxml.jackson.core.JsonFactory(); }
                catch (NoClassDefFoundError e) { return e; }
              }
              public static Object linkNetty() {
                try { return io.netty.buffer.Unpooled.buffer(1); }
                catch (NoClassDefFoundError e) { return e; }
              }
              public static Class<?> slf4j() { return org.slf4j.LoggerFactory.class; }
              public static Class<?> spi() { return StorageEngineProvider.class; }
            """;

    private StorageEngineProvider loadProbe(List<Path> bundled) throws IOException {
        Path jar = TestPlugins.jar()
                .classPath(TestPlugins.locationOf(LoggerFactory.class))
                .classPath(TestPlugins.locationOf(JsonFactory.class))
                .classPath(TestPlugins.locationOf(ByteBuf.class))
                .classPath(TestPlugins.locationOf(io.netty.util.ReferenceCounted.class))
                .source("probe.Provider", TestPlugins.engineProvider("probe", "probe", PROBE))
                .service(StorageEngineProvider.class, "probe.Provider")
                .writeTo(build.resolve("probe.jar"));
        List<Path> libs = new java.util.ArrayList<>(List.of(jar));
        libs.addAll(bundled);
        TestPlugins.zip(plugins.resolve("probe.zip"), Map.of("plugin.id", "probe", "plugin.version", "1",
                "plugin.requires", "^1.0.0"), libs);
        return BackendCatalog.discover(plugins).select(StorageEngineProvider.class, "storage.engine", "probe");
    }

    @Test
    void aPluginCannotLoadTheHostsLibrariesNorTheBroker() throws Exception {
        Class<?> probe = PluginProvider.implementation(loadProbe(List.of()));

        for (String hostClass : List.of(ByteBuf.class.getName(), JsonFactory.class.getName(),
                "org.pf4j.PluginManager", "org.pf4j.Plugin", "ch.qos.logback.classic.Logger",
                BackendCatalog.class.getName(), "io.kaas.plugins.internal.LoaderSwap")) {
            assertThat(Class.forName(hostClass, false, getClass().getClassLoader())).as("on the host: " + hostClass).isNotNull();
            assertThat(invoke(probe, "load", hostClass)).as(hostClass)
                    .isInstanceOf(ClassNotFoundException.class);
        }
        assertThat(invoke(probe, "linkJackson")).isInstanceOf(NoClassDefFoundError.class);
        assertThat(invoke(probe, "linkNetty")).isInstanceOf(NoClassDefFoundError.class);
    }

    @Test
    void theSpiSlf4jAndTheJdkComeFromTheHost() throws Exception {
        Class<?> probe = PluginProvider.implementation(loadProbe(List.of()));

        assertThat(invoke(probe, "spi")).isSameAs(StorageEngineProvider.class);
        assertThat(invoke(probe, "slf4j")).isSameAs(LoggerFactory.class);
        assertThat(invoke(probe, "load", "java.sql.Timestamp"))
                .isSameAs(Class.forName("java.sql.Timestamp", false, ClassLoader.getPlatformClassLoader()));
        assertThat(probe.getClassLoader().getParent()).isSameAs(ClassLoader.getPlatformClassLoader());
    }

    @Test
    void whatAPluginBundlesComesFromItsOwnJarsClassesAndResourcesAlike() throws IOException {
        Path jackson = TestPlugins.locationOf(JsonFactory.class);
        Class<?> probe = PluginProvider.implementation(loadProbe(List.of(jackson)));
        ClassLoader plugin = probe.getClassLoader();

        Object factory = invoke(probe, "linkJackson");
        assertThat(factory.getClass().getName()).isEqualTo(JsonFactory.class.getName());
        assertThat(factory.getClass()).isNotSameAs(JsonFactory.class);
        assertThat(factory.getClass().getClassLoader()).isSameAs(plugin);

        // The host has this services file too (its own jackson-core); the plugin sees its copy only.
        String jacksonServices = "META-INF/services/" + JsonFactory.class.getName();
        assertThat(Collections.list(getClass().getClassLoader().getResources(jacksonServices))).isNotEmpty();
        List<URL> seen = Collections.list(plugin.getResources(jacksonServices));
        assertThat(seen).hasSize(1);
        assertThat(seen.get(0).toString()).contains(".work").endsWith(jackson.getFileName() + "!/" + jacksonServices);
        assertThat(plugin.getResource(jacksonServices)).isEqualTo(seen.get(0));

        // The plugin's registration of its provider is its own, not the host's test registrations.
        String engineServices = "META-INF/services/" + StorageEngineProvider.class.getName();
        assertThat(Collections.list(getClass().getClassLoader().getResources(engineServices))).isNotEmpty();
        List<URL> registrations = Collections.list(plugin.getResources(engineServices));
        assertThat(registrations).hasSize(1);
        assertThat(registrations.get(0).toString()).contains("probe.jar!/");

        // A host resource outside the shared packages is not there; one inside them is the host's.
        assertThat(getClass().getClassLoader().getResource("logback-test.xml")).isNotNull();
        assertThat(plugin.getResource("logback-test.xml")).isNull();
        String spiClass = "io/kaas/api/storage/StorageEngineProvider.class";
        assertThat(plugin.getResource(spiClass)).isEqualTo(StorageEngineProvider.class.getClassLoader().getResource(spiClass));
    }

    @Test
    void aPluginThatNamesAPf4jPluginClassIsRefusedWithAReason() throws IOException {
        TestPlugins.jar().pluginId("classy", "1").manifest("Plugin-Class", "classy.Lifecycle")
                .source("classy.Provider", TestPlugins.engineProvider("classy", "classy", ""))
                .service(StorageEngineProvider.class, "classy.Provider")
                .writeTo(plugins.resolve("classy.jar"));

        assertThatThrownBy(() -> BackendCatalog.discover(plugins))
                .isInstanceOf(BackendSelectionException.class)
                .hasMessageContaining("Plugin classy.jar in ")
                .hasMessageContaining("plugin classy names a PF4J plugin class (classy.Lifecycle)")
                .hasMessageContaining("META-INF/services");
    }

    private static Object invoke(Class<?> type, String method, String... args) {
        try {
            if (args.length == 0) {
                return type.getMethod(method).invoke(null);
            }
            return type.getMethod(method, String.class).invoke(null, (Object[]) args);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
