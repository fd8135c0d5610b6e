package io.kaas.plugins.internal;

import io.kaas.api.storage.EngineContext;
import io.kaas.api.storage.StorageEngine;
import io.kaas.api.storage.StorageEngineProvider;
import java.io.IOException;

/** A plugin's {@link StorageEngineProvider}, with the plugin's context class loader around every call. */
final class PluginStorageEngineProvider extends PluginBackendProvider<StorageEngineProvider> implements StorageEngineProvider {
    PluginStorageEngineProvider(StorageEngineProvider delegate, ClassLoader loader, String fallbackVersion) {
        super(delegate, loader, fallbackVersion);
    }

    @Override
    public StorageEngine open(EngineContext context) throws IOException {
        return openUnderLoader(() -> new PluginStorageEngine(delegate.open(context), loader));
    }

    @Override
    public boolean sharedVolume() {
        return delegate.sharedVolume();
    }
}
