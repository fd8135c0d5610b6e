package io.kaas.plugins.internal;

import io.kaas.api.plugin.BackendProvider;
import java.io.IOException;
import java.util.Set;

/**
 * What every wrapped plugin provider shares: {@code name}, {@code version}, {@code spiVersion} and
 * {@code reservedNames} delegated under the plugin's context class loader, the plugin's version from its descriptor when the
 * provider reports none, and {@link #openUnderLoader} for the SPI's {@code open}. Each subclass adds
 * the SPI interface it wraps and decides how the runtime object it opens is itself wrapped.
 *
 * @param <P> the SPI provider type the plugin implements
 */
abstract class PluginBackendProvider<P extends BackendProvider> implements BackendProvider, PluginProvider {
    /** An {@code open} call into the plugin. */
    @FunctionalInterface
    interface Opener<T> {
        T open() throws IOException;
    }

    protected final P delegate;
    protected final ClassLoader loader;
    private final String fallbackVersion;

    PluginBackendProvider(P delegate, ClassLoader loader, String fallbackVersion) {
        this.delegate = delegate;
        this.loader = loader;
        this.fallbackVersion = fallbackVersion;
    }

    @Override
    public final String name() {
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            return delegate.name();
        }
    }

    /** The provider's own version, else the plugin's version from its descriptor. */
    @Override
    public final String version() {
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            String version = delegate.version();
            return version == null || version.equals("unknown") ? fallbackVersion : version;
        }
    }

    @Override
    public final int spiVersion() {
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            return delegate.spiVersion();
        }
    }

    @Override
    public final Set<String> reservedNames() {
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            return Set.copyOf(delegate.reservedNames());
        }
    }

    @Override
    public final Set<String> configKeys() {
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            return Set.copyOf(delegate.configKeys());
        }
    }

    /** Runs {@code opener} with the plugin's class loader as the thread context class loader. */
    protected final <T> T openUnderLoader(Opener<T> opener) throws IOException {
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            return opener.open();
        }
    }

    @Override
    public final BackendProvider delegate() {
        return delegate;
    }

    @Override
    public final ClassLoader pluginLoader() {
        return loader;
    }

    @Override
    public final String toString() {
        return delegate.getClass().getName();
    }
}
