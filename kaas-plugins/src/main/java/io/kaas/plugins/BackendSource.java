package io.kaas.plugins;

import io.kaas.api.plugin.BackendProvider;
import io.kaas.plugins.internal.PluginDirectorySource;
import io.kaas.plugins.internal.ServiceLoaderSource;
import java.nio.file.Path;
import java.util.List;

/**
 * A place backends come from: the built-in ones on the module or class path, and drop-in plugins
 * from a {@code plugins/} directory. A source instantiates providers (cheap, no I/O by the SPI
 * contract) and says where each came from; the {@link BackendCatalog} decides which one is used.
 */
public interface BackendSource {

    /**
     * Every provider of {@code kind} this source offers. Called once per kind at discovery; a provider
     * that cannot be loaded is logged and left out rather than failing the others.
     */
    <P extends BackendProvider> List<Offer<P>> find(Class<P> kind);

    /**
     * What went wrong while this source loaded its backends, one line each (e.g. a plugin that cannot
     * be read). The catalog fails start-up on the first. Built-in sources have none: a built-in
     * provider that cannot be loaded is logged and skipped.
     */
    default List<String> problems() {
        return List.of();
    }

    /**
     * The backends of plugins this source left out because none of them is selected (see {@link BackendSelection}),
     * so that a name that matches nothing can be answered with every name there is.
     */
    default List<NotLoaded> notLoaded() {
        return List.of();
    }

    /**
     * Built-in backends, found with {@link java.util.ServiceLoader} in the boot module layer (module
     * path, {@code provides}) and through the plugin host's class loader (class path,
     * {@code META-INF/services}).
     */
    static BackendSource builtIn() {
        return new ServiceLoaderSource(ModuleLayer.boot(), BackendSource.class.getClassLoader());
    }

    /**
     * Drop-in plugins in {@code directory}, loaded (and started) now with PF4J, each in its own class
     * loader that always takes {@code io.kaas.api.} from the host, every call into a plugin made with
     * the plugin's class loader as the thread context class loader. A plugin is a jar, a zip or a
     * folder (see {@code docs/writing-a-plugin.md}). A missing directory holds no plugins. Plugins that
     * cannot be used are reported by {@link #problems()}.
     */
    static BackendSource plugins(Path directory) {
        return PluginDirectorySource.load(directory);
    }

    /**
     * As {@link #plugins(Path)}, but a plugin that declares its backends is loaded only when {@code selection}
     * selects one of them.
     */
    static BackendSource plugins(Path directory, BackendSelection selection) {
        return PluginDirectorySource.load(directory, selection);
    }

    /**
     * A backend a plugin declares and that was not loaded.
     *
     * @param configKey the config key that selects its kind ({@code storage.engine}, {@code cluster.store},
     *                  {@code authorizer})
     * @param name      its name
     * @param origin    the plugin's file or folder
     */
    record NotLoaded(String configKey, String name, String origin) {
    }

    /**
     * A provider as a source offers it.
     *
     * @param provider the provider instance
     * @param origin   where it came from: a module name, or a jar or directory location
     */
    record Offer<P extends BackendProvider>(P provider, String origin) {
    }
}
