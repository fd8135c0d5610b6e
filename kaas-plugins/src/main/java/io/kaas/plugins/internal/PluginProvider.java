package io.kaas.plugins.internal;

import io.kaas.api.plugin.BackendProvider;

/**
 * A provider from a plugin, wrapped so that every call into it runs with the plugin's class loader
 * as the thread context class loader. The catalog looks through the wrapper to tell providers apart.
 */
public interface PluginProvider {
    /** The plugin's own provider instance. */
    BackendProvider delegate();

    /** The class every call into the plugin runs under. */
    ClassLoader pluginLoader();

    /** The class that identifies a provider: the plugin's own class for a wrapped one. */
    static Class<?> implementation(BackendProvider provider) {
        return provider instanceof PluginProvider p ? p.delegate().getClass() : provider.getClass();
    }
}
