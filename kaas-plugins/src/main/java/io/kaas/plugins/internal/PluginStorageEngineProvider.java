package io.kaas.plugins.internal;

import io.kaas.api.plugin.BackendProvider;
import io.kaas.api.storage.EngineContext;
import io.kaas.api.storage.StorageEngine;
import io.kaas.api.storage.StorageEngineProvider;
import java.io.IOException;

/** A plugin's {@link StorageEngineProvider}, with the plugin's context class loader around every call. */
final class PluginStorageEngineProvider implements StorageEngineProvider, PluginProvider {
    private final StorageEngineProvider delegate;
    private final ClassLoader loader;
    private final String fallbackVersion;

    PluginStorageEngineProvider(StorageEngineProvider delegate, ClassLoader loader, String fallbackVersion) {
        this.delegate = delegate;
        this.loader = loader;
        this.fallbackVersion = fallbackVersion;
    }

    @Override
    public String name() {
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            return delegate.name();
        }
    }

    /** The provider's own version, else the plugin's version from its descriptor. */
    @Override
    public String version() {
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            String version = delegate.version();
            return version == null || version.equals("unknown") ? fallbackVersion : version;
        }
    }

    @Override
    public int spiVersion() {
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            return delegate.spiVersion();
        }
    }

    @Override
    public StorageEngine open(EngineContext context) throws IOException {
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            return new PluginStorageEngine(delegate.open(context), loader);
        }
    }

    @Override
    public BackendProvider delegate() {
        return delegate;
    }

    @Override
    public ClassLoader pluginLoader() {
        return loader;
    }

    @Override
    public String toString() {
        return delegate.getClass().getName();
    }
}
