package io.kaas.engine.rocksdb;

import io.kaas.api.plugin.SpiVersion;
import io.kaas.api.storage.EngineContext;
import io.kaas.api.storage.StorageEngine;
import io.kaas.api.storage.StorageEngineProvider;
import io.kaas.engine.rocksdb.internal.RocksDbConfig;
import io.kaas.engine.rocksdb.internal.RocksDbEngine;
import java.io.IOException;
import java.util.Set;

/**
 * The {@code rocksdb} storage engine: one RocksDB instance under {@code <dataDir>/rocksdb/}. Found by
 * {@link java.util.ServiceLoader}; loads no native code and does no I/O until {@link #open} is called.
 */
public final class RocksDbEngineProvider implements StorageEngineProvider {
    /** The value of {@code storage.engine} that selects this engine. */
    public static final String NAME = "rocksdb";

    /** The directory, under the data directory, that holds the database. */
    public static final String DIRECTORY = "rocksdb";

    @Override
    public String name() {
        return NAME;
    }

    /**
     * Opens (creating if absent) the database and its column families.
     *
     * @throws io.kaas.api.plugin.PluginConfigException naming the key if a setting is unusable
     * @throws IOException if RocksDB cannot open the database
     */
    @Override
    public StorageEngine open(EngineContext context) throws IOException {
        RocksDbConfig config = RocksDbConfig.from(context.config());
        return RocksDbEngine.open(context.dataDir().resolve(DIRECTORY), config, context.clock(),
                context.producerExpiration(), context.stats());
    }

    @Override
    public Set<String> configKeys() {
        return RocksDbConfig.KEYS;
    }

    /** {@value #DIRECTORY}: no topic may be named as the database's directory. */
    @Override
    public Set<String> reservedNames() {
        return Set.of(DIRECTORY);
    }

    @Override
    public int spiVersion() {
        return SpiVersion.MAJOR;
    }
}
