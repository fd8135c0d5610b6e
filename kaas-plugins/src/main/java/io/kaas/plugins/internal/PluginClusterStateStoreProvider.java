package io.kaas.plugins.internal;

import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.ClusterStateStoreProvider;
import io.kaas.api.cluster.ClusterStoreContext;
import io.kaas.api.plugin.BackendProvider;
import java.io.IOException;

/**
 * A plugin's {@link ClusterStateStoreProvider}, with the plugin's context class loader around every
 * call. The store it opens is wrapped by {@link ContextLoaderProxy}: a generic proxy rather than a
 * decorator class because the store's interface is still growing (group offsets…) and it is off the
 * produce/fetch path, where the storage wrappers are explicit classes.
 */
final class PluginClusterStateStoreProvider implements ClusterStateStoreProvider, PluginProvider {
    private final ClusterStateStoreProvider delegate;
    private final ClassLoader loader;
    private final String fallbackVersion;

    PluginClusterStateStoreProvider(ClusterStateStoreProvider delegate, ClassLoader loader, String fallbackVersion) {
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
    public ClusterStateStore open(ClusterStoreContext context) throws IOException {
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            return ContextLoaderProxy.wrap(ClusterStateStore.class, delegate.open(context), loader);
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
