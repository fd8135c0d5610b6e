package io.kaas.broker.it.plugins;

import io.kaas.broker.KaasBroker;
import io.kaas.broker.config.BrokerConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/** Brokers started over a temporary plugins directory holding the plugin zips the build produced. */
public final class PluginBrokers {
    /** Where kaas-broker's pom copies the plugin zips (maven-dependency-plugin, test-plugins execution). */
    static final Path BUILT_PLUGINS = Path.of("target", "test-plugins");

    private PluginBrokers() {
    }

    /** Copies the built zip of {@code artifactId} (e.g. kaas-engine-rocksdb) into {@code pluginsDir}. */
    public static Path installPlugin(String artifactId, Path pluginsDir) throws IOException {
        Path zip;
        try (Stream<Path> files = Files.list(BUILT_PLUGINS)) {
            zip = files.filter(f -> f.getFileName().toString().startsWith(artifactId + "-")
                            && f.getFileName().toString().endsWith("-plugin.zip"))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no " + artifactId + " plugin zip in " + BUILT_PLUGINS.toAbsolutePath()
                            + "; build the plugin modules first (mvn install)"));
        }
        Files.createDirectories(pluginsDir);
        return Files.copy(zip, pluginsDir.resolve(zip.getFileName()));
    }

    /** A broker on 127.0.0.1 with an ephemeral port, the given engine and plugins directory. */
    static KaasBroker start(Path dataDir, Path pluginsDir, String engine) throws IOException {
        Map<String, String> config = new HashMap<>();
        config.put("node.id", "1");
        config.put("listeners", "PLAINTEXT://127.0.0.1:0");
        config.put("log.dirs", dataDir.toString());
        config.put("plugins.dir", pluginsDir.toString());
        config.put("storage.engine", engine);
        config.put("storage.rocksdb.block.cache.bytes", "8388608");
        return KaasBroker.start(BrokerConfig.of(config));
    }
}
