package io.kaas.coordinator.group;

import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.storage.EngineContext;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.StorageEngine;
import io.kaas.engine.segments.SegmentEngineProvider;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.UUID;

/**
 * {@code __consumer_offsets} as partitions of a real segment engine in a directory (the broker keeps it as a topic of
 * its engine): {@link #gainAll} hands every partition to a group coordinator, as the broker does when it owns them.
 */
public final class EngineOffsets implements ConsumerOffsetsLog, AutoCloseable {
    public static final UUID TOPIC_ID = new UUID(5, 5);
    public static final int PARTITIONS = 3;

    private final StorageEngine engine;
    private final boolean ownsEngine;

    private EngineOffsets(StorageEngine engine, boolean ownsEngine) {
        this.engine = engine;
        this.ownsEngine = ownsEngine;
    }

    /** Over an engine of its own in {@code dir}. */
    public static EngineOffsets open(Path dir) throws IOException {
        return new EngineOffsets(new SegmentEngineProvider().open(new EngineContext(dir, PluginConfig.empty(), 1,
                Clock.systemUTC())), true);
    }

    /** Over {@code engine}, which the caller closes. */
    public static EngineOffsets on(StorageEngine engine) {
        return new EngineOffsets(engine, false);
    }

    @Override
    public int partitionCount() {
        return PARTITIONS;
    }

    public PartitionLog log(int partition) throws IOException {
        return engine.openPartition(new PartitionKey(GroupCoordinator.OFFSETS_TOPIC, TOPIC_ID, partition),
                LogConfig.defaults());
    }

    /** Hands every partition to {@code coordinator}, at epoch 0. */
    public GroupCoordinator gainAll(GroupCoordinator coordinator) throws IOException {
        for (int p = 0; p < PARTITIONS; p++) {
            coordinator.onPartitionGained(p, log(p), 0);
        }
        return coordinator;
    }

    @Override
    public void close() throws IOException {
        if (ownsEngine) {
            engine.close();
        }
    }
}
