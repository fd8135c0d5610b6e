package io.kaas.api.storage;

import io.kaas.api.plugin.PluginConfig;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;

/**
 * What the host hands an engine when it opens it.
 *
 * @param dataDir            the root data directory (Kafka's {@code log.dirs}, first entry); the engine owns it
 *                           except for {@code __cluster/}
 * @param config             the engine's own settings, prefix removed
 * @param brokerId           this broker's {@code node.id}
 * @param clock              the clock for timestamps, retention and producer expiration
 * @param producerExpiration when idle producers' state is removed: the broker's {@code producer.id.expiration.ms}
 *                           and {@code producer.id.expiration.check.interval.ms}
 * @param fence              whether this broker still writes a partition at an epoch ({@link PartitionFence#NONE}
 *                           for a broker alone on its data directory)
 */
public record EngineContext(Path dataDir, PluginConfig config, int brokerId, Clock clock,
                            ProducerExpiration producerExpiration, PartitionFence fence, EngineStats stats) {
    public EngineContext {
        Objects.requireNonNull(producerExpiration, "producerExpiration");
        Objects.requireNonNull(fence, "fence");
        Objects.requireNonNull(stats, "stats");
    }

    /** A context whose engine reports its measurements nowhere ({@link EngineStats#NONE}). */
    public EngineContext(Path dataDir, PluginConfig config, int brokerId, Clock clock,
                         ProducerExpiration producerExpiration, PartitionFence fence) {
        this(dataDir, config, brokerId, clock, producerExpiration, fence, EngineStats.NONE);
    }

    /** A context for a broker alone on its data directory ({@link PartitionFence#NONE}). */
    public EngineContext(Path dataDir, PluginConfig config, int brokerId, Clock clock,
                         ProducerExpiration producerExpiration) {
        this(dataDir, config, brokerId, clock, producerExpiration, PartitionFence.NONE);
    }

    /** A context with Kafka's default producer expiration ({@link ProducerExpiration#KAFKA_DEFAULTS}). */
    public EngineContext(Path dataDir, PluginConfig config, int brokerId, Clock clock) {
        this(dataDir, config, brokerId, clock, ProducerExpiration.KAFKA_DEFAULTS);
    }
}
