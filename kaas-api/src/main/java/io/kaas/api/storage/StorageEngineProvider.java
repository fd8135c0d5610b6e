package io.kaas.api.storage;

import io.kaas.api.plugin.BackendProvider;
import java.io.IOException;

/**
 * Describes and creates a storage engine. Found by {@link java.util.ServiceLoader}; public no-arg
 * constructor; does no I/O when constructed. Selected by {@link #name()} through {@code storage.engine}.
 */
public interface StorageEngineProvider extends BackendProvider {
    /**
     * Opens the engine. Called once per broker start, never on a network thread; may block.
     * The engine receives its settings (keys under {@code storage.<name>.}, prefix removed) in the context.
     *
     * @throws io.kaas.api.plugin.PluginConfigException naming the key if a setting is unusable
     */
    StorageEngine open(EngineContext context) throws IOException;

    /**
     * Whether several brokers may open this engine over one shared data directory, each writing the partitions
     * assigned to it ({@link StorageEngine#openPartition(PartitionKey, LogConfig, int)}): what a cluster store shared by
     * several brokers ({@code cluster.store=zookeeper}) requires. The broker refuses to start a cluster with an engine
     * that does not. False by default.
     */
    default boolean sharedVolume() {
        return false;
    }
}
