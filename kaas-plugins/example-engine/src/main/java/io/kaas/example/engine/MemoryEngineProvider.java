package io.kaas.example.engine;

import io.kaas.api.plugin.SpiVersion;
import io.kaas.api.storage.EngineContext;
import io.kaas.api.storage.StorageEngine;
import io.kaas.api.storage.StorageEngineProvider;

/**
 * The {@code memory} storage engine. Found by {@link java.util.ServiceLoader} (public no-arg
 * constructor, no work when constructed); selected with {@code storage.engine=memory}.
 *
 * <p>Settings (under {@code storage.memory.} in {@code server.properties}, prefix removed):
 * {@code max.partition.bytes} (default unlimited, -1): an append that would grow a partition past it
 * fails with {@code KafkaStorageException}, as a full disk would.
 */
public final class MemoryEngineProvider implements StorageEngineProvider {
    /** The value of {@code storage.engine} that selects this engine. */
    public static final String NAME = "memory";

    @Override
    public String name() {
        return NAME;
    }

    /** Compiled into this class, so the host sees the SPI version the plugin was built against. */
    @Override
    public int spiVersion() {
        return SpiVersion.MAJOR;
    }

    @Override
    public StorageEngine open(EngineContext context) {
        long maxPartitionBytes = context.config().getLong("max.partition.bytes", -1);
        return new MemoryEngine(context.clock(), maxPartitionBytes, context.producerExpiration());
    }
}
