package io.kaas.broker.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/** Reads a properties file and kafka-server-start.sh style {@code --override key=value} arguments. */
final class ConfigLoader {

    static final Path DEFAULT_FILE = Path.of("config", "server.properties");

    private ConfigLoader() {
    }

    /** The file's settings (none when {@code file} is null) with {@code overrides} on top. */
    static Map<String, String> read(Path file, Map<String, String> overrides) {
        Map<String, String> values = new TreeMap<>();
        if (file != null) {
            Properties props = new Properties();
            try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                props.load(r);
            } catch (IOException e) {
                throw new ConfigException(null, "Cannot read config file " + file + ": " + e.getMessage());
            }
            props.stringPropertyNames().forEach(k -> values.put(k, props.getProperty(k)));
        }
        values.putAll(overrides);
        return values;
    }

    /** {@code [config-file] [--override key=value]...}; without a file, {@link #DEFAULT_FILE} if it exists. */
    static Map<String, String> fromArgs(String... args) {
        Path file = null;
        Map<String, String> overrides = new TreeMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--override")) {
                if (i + 1 >= args.length) {
                    throw new ConfigException(null, "--override needs a key=value argument");
                }
                putOverride(overrides, args[++i]);
            } else if (a.startsWith("--override=")) {
                putOverride(overrides, a.substring("--override=".length()));
            } else if (a.startsWith("-")) {
                throw new ConfigException(null, "Unknown option " + a + "; usage: [config-file] [--override key=value]...");
            } else if (file == null) {
                file = Path.of(a);
            } else {
                throw new ConfigException(null, "Only one config file may be given, got " + file + " and " + a);
            }
        }
        if (file == null && Files.isRegularFile(DEFAULT_FILE)) {
            file = DEFAULT_FILE;
        }
        if (file != null && !Files.isRegularFile(file)) {
            throw new ConfigException(null, "Config file " + file + " does not exist");
        }
        return read(file, overrides);
    }

    private static void putOverride(Map<String, String> overrides, String kv) {
        int eq = kv.indexOf('=');
        if (eq <= 0) {
            throw new ConfigException(null, "--override expects key=value, got '" + kv + "'");
        }
        overrides.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
    }
}
