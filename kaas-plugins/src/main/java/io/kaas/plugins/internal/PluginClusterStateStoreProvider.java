package io.kaas.plugins.internal;

import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.ClusterStateStoreProvider;
import io.kaas.api.cluster.ClusterStoreContext;
import java.io.IOException;

/**
 * A plugin's {@link ClusterStateStoreProvider}, with the plugin's context class loader around every
 * call. The store it opens is wrapped by {@link ContextLoaderProxy}: a generic proxy rather than a
 * decorator class because the store's interface is still growing (group offsets…) and it is off the
 * produce/fetch path, where the storage wrappers are explicit classes.
 */
final class PluginClusterStateStoreProvider extends PluginBackendProvider<ClusterStateStoreProvider> implements ClusterStateStoreProvider {
    PluginClusterStateStoreProvider(ClusterStateStoreProvider delegate, ClassLoader loader, String fallbackVersion) {
        super(delegate, loader, fallbackVersion);
    }

    @Override
    public ClusterStateStore open(ClusterStoreContext context) throws IOException {
        return openUnderLoader(() -> ContextLoaderProxy.wrap(ClusterStateStore.class, delegate.open(context), loader));
    }
}
