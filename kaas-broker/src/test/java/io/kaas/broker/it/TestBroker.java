package io.kaas.broker.it;

import io.kaas.broker.KaasBroker;
import io.kaas.broker.config.BrokerConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The in-process broker every integration test runs against: on 127.0.0.1 with an ephemeral port, with real
 * Kafka clients pointed at it ({@link KafkaClients}). Built with {@link #builder(Path)}:
 * <pre>{@code
 * TestBroker.Builder b = TestBroker.builder(dir).engine(TestBroker.ROCKSDB).config("num.partitions", "2");
 * try (TestBroker broker = b.start()) { ... }
 * try (TestBroker again = b.start()) { ... }   // a restart over the same data directory
 * }</pre>
 */
public final class TestBroker extends KafkaClients implements AutoCloseable {
    /** The storage engines the end-to-end tests run over: the built-in default and the RocksDB plugin. */
    public static final String SEGMENTS = "segments";
    public static final String ROCKSDB = "rocksdb";

    /** The plugin zip (artifact id) that brings each engine that is not built in. */
    private static final Map<String, String> ENGINE_PLUGINS = Map.of(ROCKSDB, "kaas-engine-rocksdb",
            "memory", "kaas-example-engine");

    public final Path dataDir;
    public final KaasBroker broker;
    private final Builder builder;

    private TestBroker(Path dataDir, KaasBroker broker, Builder builder) {
        super(() -> "127.0.0.1:" + broker.boundPort());
        this.dataDir = dataDir;
        this.broker = broker;
        this.builder = builder;
    }

    /**
     * A broker whose files live under {@code dir}: data in {@code dir/data} (see {@link Builder#dataDir}),
     * plugins an engine needs in {@code dir/plugins}, ACL files in {@code dir}.
     */
    public static Builder builder(Path dir) {
        return new Builder(dir);
    }

    /** {@code builder(dataDir).dataDir(dataDir).start()}. */
    public static TestBroker start(Path dataDir) throws IOException {
        return start(dataDir, Map.of());
    }

    /** {@code builder(dataDir).dataDir(dataDir).config(overrides).start()}. */
    public static TestBroker start(Path dataDir, Map<String, String> overrides) throws IOException {
        return builder(dataDir).dataDir(dataDir).config(overrides).start();
    }

    /** Where kaas-broker's pom copies the plugin zips (maven-dependency-plugin, test-plugins execution). */
    private static final Path BUILT_PLUGINS = Path.of("target", "test-plugins");

    /** Copies the built zip of {@code artifactId} (e.g. kaas-engine-rocksdb) into {@code pluginsDir}. */
    public static Path installPlugin(String artifactId, Path pluginsDir) throws IOException {
        Path zip;
        try (Stream<Path> files = Files.list(BUILT_PLUGINS)) {
            zip = files.filter(f -> f.getFileName().toString().startsWith(artifactId + "-")
                            && f.getFileName().toString().endsWith("-plugin.zip"))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no " + artifactId + " plugin zip in "
                            + BUILT_PLUGINS.toAbsolutePath() + "; build the plugin modules first (mvn install)"));
        }
        Files.createDirectories(pluginsDir);
        return Files.copy(zip, pluginsDir.resolve(zip.getFileName()));
    }

    public int port() {
        return broker.boundPort();
    }

    /** Closes this broker and starts a new one from the same builder, over the same data directory. */
    public TestBroker restart() throws IOException {
        close();
        return builder.start();
    }

    @Override
    public void close() {
        broker.close();
    }

    /** What the broker is started with; reusable: each {@link #start()} is a (re)start over the same data. */
    public static final class Builder {
        private final Path dir;
        private final Map<String, String> config = new HashMap<>();
        private Path dataDir;
        private Path pluginsDir;
        private String engine = SEGMENTS;
        private int aclFiles;
        private boolean replaceStoredAcls;

        private Builder(Path dir) {
            this.dir = Objects.requireNonNull(dir);
        }

        /** The broker's {@code log.dirs}; {@code dir/data} by default. */
        public Builder dataDir(Path dataDir) {
            this.dataDir = dataDir;
            return this;
        }

        /**
         * {@code storage.engine}. An engine that is not built in comes only from its plugin zip, installed once
         * into {@code dir/plugins} unless {@link #pluginsDir} names a directory: its library is on no class path.
         */
        public Builder engine(String engine) {
            this.engine = engine;
            return this;
        }

        /** {@code plugins.dir}, used as it is (the test installs what it needs; it need not exist). */
        public Builder pluginsDir(Path pluginsDir) {
            this.pluginsDir = pluginsDir;
            return this;
        }

        public Builder config(String key, String value) {
            config.put(key, value);
            return this;
        }

        public Builder config(Map<String, String> overrides) {
            config.putAll(overrides);
            return this;
        }

        /** {@code group.initial.rebalance.delay.ms=0}: a group's first rebalance does not wait for more members. */
        public Builder noInitialRebalanceDelay() {
            return config("group.initial.rebalance.delay.ms", "0");
        }

        /**
         * {@code authorizer=acl} over a new file in {@code dir} holding {@code rules}. The file seeds only an empty
         * ACL store, so the next {@link #start()} first removes the ACLs a previous broker over the same data
         * directory stored (the files store's {@code __cluster/acls.json}): the broker enforces exactly
         * {@code rules}. A {@link TestBroker#restart()} keeps the stored ACLs.
         */
        public Builder acl(String rules) throws IOException {
            Files.createDirectories(dir);
            Path file = Files.writeString(dir.resolve("acl-" + (++aclFiles) + ".rules"), rules);
            replaceStoredAcls = true;
            return config("authorizer", "acl").config("authorizer.acl.file", file.toString());
        }

        /** The broker configuration {@link #start()} starts with. */
        public BrokerConfig brokerConfig() throws IOException {
            Path data = Files.createDirectories(dataPath());
            Map<String, String> values = new HashMap<>();
            values.put("node.id", "1");
            values.put("listeners", "PLAINTEXT://127.0.0.1:0");
            // An ephemeral admin endpoint: several brokers run in one JVM, none may take 9644.
            values.put("admin.listener", "http://127.0.0.1:0");
            values.put("log.dirs", data.toString());
            values.put("storage.engine", engine);
            Path plugins = pluginsDir;
            if (plugins == null && ENGINE_PLUGINS.containsKey(engine)) {
                plugins = dir.resolve("plugins");
                if (!Files.isDirectory(plugins)) {
                    installPlugin(ENGINE_PLUGINS.get(engine), plugins);
                }
            }
            if (plugins != null) {
                values.put("plugins.dir", plugins.toString());
                values.put("storage.rocksdb.block.cache.bytes", "8388608");
            }
            values.putAll(config);
            return BrokerConfig.of(values);
        }

        public TestBroker start() throws IOException {
            BrokerConfig config = brokerConfig();
            if (replaceStoredAcls) {
                Files.deleteIfExists(config.logDir().resolve("__cluster").resolve("acls.json"));
                replaceStoredAcls = false;
            }
            return new TestBroker(dataPath(), KaasBroker.start(config), this);
        }

        private Path dataPath() {
            return dataDir != null ? dataDir : dir.resolve("data");
        }
    }
}
