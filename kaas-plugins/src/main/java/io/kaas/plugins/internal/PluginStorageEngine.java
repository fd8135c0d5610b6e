package io.kaas.plugins.internal;

import java.util.Optional;
import java.nio.file.Path;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.StorageEngine;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A plugin's {@link StorageEngine}, with the plugin's context class loader around every call. Hands
 * out one {@link PluginPartitionLog} per partition log of the plugin, so the SPI promise that
 * {@code openPartition} returns the same instance until the partition is deleted holds through the
 * wrapper too.
 */
final class PluginStorageEngine implements StorageEngine {
    private final StorageEngine delegate;
    private final ClassLoader loader;
    private final Map<PartitionLog, PluginPartitionLog> wrappers = new ConcurrentHashMap<>();

    PluginStorageEngine(StorageEngine delegate, ClassLoader loader) {
        this.delegate = delegate;
        this.loader = loader;
    }

    @Override
    public Optional<Path> logDir() {
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            return delegate.logDir();
        }
    }

    @Override
    public void checkConfig(LogConfig config) {
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            delegate.checkConfig(config);
        }
    }

    @Override
    public PartitionLog openPartition(PartitionKey key, LogConfig config) throws IOException {
        PartitionLog log;
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            log = delegate.openPartition(key, config);
        }
        return wrappers.computeIfAbsent(log, l -> new PluginPartitionLog(l, key, loader));
    }

    @Override
    public PartitionLog openPartition(PartitionKey key, LogConfig config, int leaderEpoch) throws IOException {
        PartitionLog log;
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            log = delegate.openPartition(key, config, leaderEpoch);
        }
        return wrappers.computeIfAbsent(log, l -> new PluginPartitionLog(l, key, loader));
    }

    @Override
    public void closePartition(PartitionKey key) throws IOException {
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            delegate.closePartition(key);
        } finally {
            wrappers.values().removeIf(w -> w.key().equals(key));
        }
    }

    @Override
    public void deletePartition(PartitionKey key) throws IOException {
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            delegate.deletePartition(key);
        } finally {
            wrappers.values().removeIf(w -> w.key().equals(key));
        }
    }

    @Override
    public void close() throws IOException {
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            delegate.close();
        } finally {
            wrappers.clear();
        }
    }

    @Override
    public String toString() {
        return delegate.toString();
    }
}
