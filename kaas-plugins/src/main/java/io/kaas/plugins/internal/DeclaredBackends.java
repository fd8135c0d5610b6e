package io.kaas.plugins.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The backends a plugin says it provides, read from its descriptor without loading it: {@code plugin.backends} in a
 * zip's or folder's {@code plugin.properties}, {@code Plugin-Backends} in a jar's manifest. The value lists
 * {@code <config key>:<name>} pairs separated by commas, e.g. {@code storage.engine:rocksdb}; the config keys are
 * the ones that select a backend ({@code storage.engine}, {@code cluster.store}, {@code authorizer}). A plugin that
 * declares nothing is loaded whatever is selected; one that declares is loaded only when a declared backend is
 * selected, and must then provide exactly what it declares.
 */
final class DeclaredBackends {
    static final String PROPERTY = "plugin.backends";
    static final String MANIFEST_ATTRIBUTE = "Plugin-Backends";
    static final Set<String> KEYS = Set.of("storage.engine", "cluster.store", "authorizer");

    /** One declared backend: the config key that selects its kind, and its name. */
    record Declared(String key, String name) {
        @Override
        public String toString() {
            return key + " '" + name + "'";
        }
    }

    private DeclaredBackends() {
    }

    /**
     * What {@code entry} (a jar, a zip or a folder in the plugins directory) declares; empty if it declares nothing
     * or has no descriptor (loading it then reports what is wrong).
     *
     * @throws IOException              if the file cannot be read (loading it then reports what is wrong)
     * @throws IllegalArgumentException if the declaration is malformed (the message says how)
     */
    static Optional<List<Declared>> of(Path entry) throws IOException {
        String name = entry.getFileName().toString();
        String value;
        if (Files.isDirectory(entry)) {
            Path properties = entry.resolve("plugin.properties");
            if (!Files.isRegularFile(properties)) {
                return Optional.empty();
            }
            try (InputStream in = Files.newInputStream(properties)) {
                value = property(in);
            }
        } else if (name.endsWith(".zip")) {
            try (ZipFile zip = new ZipFile(entry.toFile())) {
                ZipEntry properties = zip.getEntry("plugin.properties");
                if (properties == null) {
                    return Optional.empty();
                }
                try (InputStream in = zip.getInputStream(properties)) {
                    value = property(in);
                }
            }
        } else if (name.endsWith(".jar")) {
            try (JarFile jar = new JarFile(entry.toFile(), false)) {
                Manifest manifest = jar.getManifest();
                value = manifest == null ? null : manifest.getMainAttributes().getValue(MANIFEST_ATTRIBUTE);
            }
        } else {
            return Optional.empty();
        }
        return value == null ? Optional.empty() : Optional.of(parse(value));
    }

    private static String property(InputStream in) throws IOException {
        Properties properties = new Properties();
        properties.load(new InputStreamReader(in, StandardCharsets.UTF_8));
        return properties.getProperty(PROPERTY);
    }

    /** Parses {@code key:name[, key:name]...}. */
    static List<Declared> parse(String value) {
        List<Declared> out = new ArrayList<>();
        for (String part : value.split(",", -1)) {
            String item = part.strip();
            int colon = item.indexOf(':');
            if (colon <= 0 || colon == item.length() - 1) {
                throw new IllegalArgumentException("declares '" + value.strip() + "' as its backends: each entry is"
                        + " <config key>:<name>, e.g. storage.engine:rocksdb");
            }
            String key = item.substring(0, colon).strip();
            String backend = item.substring(colon + 1).strip();
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException("declares a backend of an unknown kind '" + key + "' ("
                        + item + "); the kinds are " + KEYS.stream().sorted().collect(Collectors.joining(", ")));
            }
            out.add(new Declared(key, backend));
        }
        return List.copyOf(out);
    }
}
