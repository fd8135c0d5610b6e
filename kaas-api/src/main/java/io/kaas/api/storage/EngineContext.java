package io.kaas.api.storage;

import io.kaas.api.plugin.PluginConfig;
import java.nio.file.Path;
import java.time.Clock;

/**
 * What the host hands an engine when it opens it.
 *
 * @param dataDir  the root data directory (Kafka's {@code log.dirs}, first entry); the engine owns it
 *                 except for {@code __cluster/}
 * @param config   the engine's own settings, prefix removed
 * @param brokerId this broker's {@code node.id}
 * @param clock    the clock for timestamps and retention
 */
public record EngineContext(Path dataDir, PluginConfig config, int brokerId, Clock clock) {
}
