package io.kaas.api.cluster;

import io.kaas.api.plugin.PluginConfig;
import java.nio.file.Path;

/**
 * What the host hands a store when it opens it.
 *
 * @param dataDir  the root data directory; a file-based store keeps its files under {@code __cluster/} in it
 * @param config   the store's own settings, prefix removed
 * @param brokerId this broker's {@code node.id}
 */
public record ClusterStoreContext(Path dataDir, PluginConfig config, int brokerId) {
}
