package io.kaas.broker.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.storage.StorageEngineProvider;
import io.kaas.broker.it.TestBroker;
import io.kaas.plugins.BackendCatalog;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
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
 * under its prefix, as the backend's config class declares them (the segment engine's
 * {@code SegmentEngineConfig}, the RocksDB plugin's {@code RocksDbConfig}, the acl authorizer's
 * {@code AclConfig}). A key counts as documented when a line sets it or shows it commented out
 * ({@code #key=value}).
 */
class ServerPropertiesDocumentationTest {
    /** The distribution's file, seen from this module's folder (the tests' working directory). */
    private static final Path SERVER_PROPERTIES = Path.of("..", "distribution", "src", "dist", "config", "server.properties");
    /** {@code key=...} or {@code #key=...} at the start of a line. */
    private static final Pattern KEY_LINE = Pattern.compile("^#?([a-z][a-z0-9._-]*)=", Pattern.MULTILINE);

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
    void theBackendsDeclareTheKeysTheTestExpects() throws Exception {
        // Guards the reflection below: if a config class stops declaring its keys as constants, the
        // check above would pass vacuously for that backend.
        assertThat(definedKeys()).contains("storage.segments.flush.interval.ms", "storage.segments.committer.threads",
                "storage.rocksdb.block.cache.bytes", "authorizer.acl.file", "log.flush.interval.messages");
    }

    private Set<String> definedKeys() throws Exception {
        Set<String> keys = new TreeSet<>(BrokerConfigDef.KEYS.keySet());
        keys.addAll(prefixed("storage.segments.", constants(Class.forName("io.kaas.engine.segments.internal.SegmentEngineConfig"))));
        keys.addAll(prefixed("authorizer.acl.", constants(Class.forName("io.kaas.authorizer.acl.AclConfig"))));
        keys.addAll(prefixed("storage.rocksdb.", constants(rocksDbConfigClass())));
        return keys;
    }

    /** {@code RocksDbConfig} from the shipped plugin zip, through the plugin host: it is on no class path here. */
    private Class<?> rocksDbConfigClass() throws IOException, ReflectiveOperationException {
        TestBroker.installPlugin("kaas-engine-rocksdb", plugins);
        StorageEngineProvider rocksdb = BackendCatalog.discover(plugins)
                .select(StorageEngineProvider.class, "storage.engine", "rocksdb");
        // The plugin host wraps a plugin's provider; its internal package is not exported to the broker.
        ClassLoader loader = (ClassLoader) Class.forName("io.kaas.plugins.internal.PluginProvider")
                .getMethod("pluginLoader").invoke(rocksdb);
        return Class.forName("io.kaas.engine.rocksdb.internal.RocksDbConfig", false, loader);
    }

    private static Set<String> documentedKeys() throws IOException {
        Set<String> keys = new TreeSet<>();
        Matcher m = KEY_LINE.matcher(Files.readString(SERVER_PROPERTIES));
        while (m.find()) {
            keys.add(m.group(1));
        }
        return keys;
    }

    /** The values of the {@code static final String} constants a config class declares: its keys. */
    private static Set<String> constants(Class<?> type) throws IllegalAccessException {
        Set<String> out = new TreeSet<>();
        for (Field f : type.getDeclaredFields()) {
            int mod = f.getModifiers();
            if (Modifier.isStatic(mod) && Modifier.isFinal(mod) && f.getType() == String.class) {
                f.setAccessible(true);
                out.add((String) f.get(null));
            }
        }
        assertThat(out).as("keys declared by " + type.getName()).isNotEmpty();
        return out;
    }

    private static Set<String> prefixed(String prefix, Set<String> keys) {
        Set<String> out = new TreeSet<>();
        keys.forEach(k -> out.add(prefix + k));
        return out;
    }

    private static Set<String> difference(Set<String> a, Set<String> b) {
        Set<String> out = new TreeSet<>(a);
        out.removeAll(b);
        return out;
    }
}
