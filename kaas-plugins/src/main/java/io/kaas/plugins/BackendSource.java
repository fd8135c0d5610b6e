package io.kaas.plugins;

import io.kaas.api.plugin.BackendProvider;
import io.kaas.plugins.internal.ServiceLoaderSource;
import java.util.List;

/**
 * A place backends come from: the built-in ones on the module or class path today, plugins from
 * {@code plugins/} later. A source instantiates providers (cheap, no I/O by the SPI contract) and
 * says where each came from; the {@link BackendCatalog} decides which one is used.
 */
public interface BackendSource {

    /**
     * Every provider of {@code kind} this source offers. Called once per kind at discovery; a provider
     * that cannot be loaded is logged and left out rather than failing the others.
     */
    <P extends BackendProvider> List<Offer<P>> find(Class<P> kind);

    /**
     * Built-in backends, found with {@link java.util.ServiceLoader} in the boot module layer (module
     * path, {@code provides}) and through the plugin host's class loader (class path,
     * {@code META-INF/services}).
     */
    static BackendSource builtIn() {
        return new ServiceLoaderSource(ModuleLayer.boot(), BackendSource.class.getClassLoader());
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
