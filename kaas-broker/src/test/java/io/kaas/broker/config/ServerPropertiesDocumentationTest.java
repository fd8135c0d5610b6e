package io.kaas.broker.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.auth.AuthorizerProvider;
import io.kaas.api.cluster.ClusterStateStoreProvider;
import io.kaas.api.plugin.BackendProvider;
import io.kaas.api.storage.StorageEngineProvider;
import io.kaas.broker.it.TestBroker;
import io.kaas.plugins.BackendCatalog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped {@code config/server.properties} documents every key the broker and its shipped backends
 * read, and nothing else: the broker's own keys ({@link BrokerConfigDef#KEYS}) and each backend's keys
 * under its prefix, as the backend declares them ({@code BackendProvider.configKeys()}). A key counts as documented when a line sets it or shows it commented out
 * ({@code #key=value}).
 */
class ServerPropertiesDocumentationTest {
    /** The distribution's file, seen from this module's folder (the tests' working directory). */
    private static final Path SERVER_PROPERTIES = Path.of("..", "distribution", "src", "dist", "config", "server.properties");
    /** {@code key=...} or {@code #key=...} at the start of a line. */
    private static final Pattern KEY_LINE = Pattern.compile("^#?([a-z][a-zA-Z0-9._-]*)=", Pattern.MULTILINE);

    @TempDir
    Path plugins;

    @Test
    void everyKeyTheBrokerAndItsBackendsReadIsDocumentedAndNothingElse() throws Exception {
        Set<String> documented = documentedKeys();
        Set<String> defined = definedKeys();

        assertThat(difference(defined, documented)).as("read but not documented in " + SERVER_PROPERTIES).isEmpty();
        assertThat(difference(documented, defined)).as("documented in " + SERVER_PROPERTIES + " but read by nobody").isEmpty();
    }

    @Test
    void theShippedBackendsDeclareTheirKeys() throws Exception {
        // If a backend stopped declaring its keys, the check above would pass vacuously for it.
        assertThat(definedKeys()).contains("storage.segments.flush.interval.ms", "storage.segments.committer.threads",
                "storage.rocksdb.block.cache.bytes", "authorizer.acl.file", "log.flush.interval.messages",
                "zookeeper.connect", "zookeeper.ssl.truststore.location");
    }

    /**
     * The broker's keys and each shipped backend's {@code configKeys()} under its prefix, the backends found as the
     * broker finds them: the built-ins on the module path, the RocksDB engine from its plugin zip.
     */
    private Set<String> definedKeys() throws Exception {
        TestBroker.installPlugin("kaas-engine-rocksdb", plugins);
        TestBroker.installPlugin("kaas-cluster-zookeeper", plugins);
        BackendCatalog catalog = BackendCatalog.discover(plugins);
        Set<String> keys = new TreeSet<>(BrokerConfigDef.KEYS.keySet());
        keys.addAll(prefixed("storage.segments.", catalog.select(StorageEngineProvider.class, "storage.engine", "segments")));
        keys.addAll(prefixed("storage.rocksdb.", catalog.select(StorageEngineProvider.class, "storage.engine", "rocksdb")));
        keys.addAll(prefixed("authorizer.acl.", catalog.select(AuthorizerProvider.class, "authorizer", "acl")));
        // The ZooKeeper store reads Kafka's zookeeper.* keys under their full names.
        keys.addAll(prefixed("", catalog.select(ClusterStateStoreProvider.class, "cluster.store", "zookeeper")));
        return keys;
    }

    private static Set<String> documentedKeys() throws IOException {
        Set<String> keys = new TreeSet<>();
        Matcher m = KEY_LINE.matcher(Files.readString(SERVER_PROPERTIES));
        while (m.find()) {
            keys.add(m.group(1));
        }
        return keys;
    }

    private static Set<String> prefixed(String prefix, BackendProvider backend) {
        assertThat(backend.configKeys()).as("keys declared by " + backend.name()).isNotEmpty();
        Set<String> out = new TreeSet<>();
        backend.configKeys().forEach(k -> out.add(prefix + k));
        return out;
    }

    private static Set<String> difference(Set<String> a, Set<String> b) {
        Set<String> out = new TreeSet<>(a);
        out.removeAll(b);
        return out;
    }
}
