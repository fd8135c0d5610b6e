package io.kaas.api.plugin;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Immutable string configuration handed to a backend, with typed getters that throw
 * {@link PluginConfigException} naming the key when a value is malformed. Thread-safe.
 */
public final class PluginConfig {
    private final Map<String, String> values;

    private PluginConfig(Map<String, String> values) {
        this.values = Map.copyOf(values);
    }

    public static PluginConfig of(Map<String, String> values) {
        return new PluginConfig(values);
    }

    public static PluginConfig empty() {
        return new PluginConfig(Map.of());
    }

    /** All values, sorted by key. */
    public Map<String, String> asMap() {
        return new TreeMap<>(values);
    }

    /** The entries whose key starts with {@code prefix}, with the prefix removed. */
    public PluginConfig withPrefix(String prefix) {
        Map<String, String> sub = new TreeMap<>();
        values.forEach((k, v) -> {
            if (k.startsWith(prefix)) {
                sub.put(k.substring(prefix.length()), v);
            }
        });
        return new PluginConfig(sub);
    }

    public Optional<String> get(String key) {
        return Optional.ofNullable(values.get(key)).map(String::trim);
    }

    public String getString(String key, String defaultValue) {
        return get(key).orElse(defaultValue);
    }

    public int getInt(String key, int defaultValue) {
        return get(key).map(v -> parse(key, v, Integer::parseInt, "an integer")).orElse(defaultValue);
    }

    public long getLong(String key, long defaultValue) {
        return get(key).map(v -> parse(key, v, Long::parseLong, "a long integer")).orElse(defaultValue);
    }

    public boolean getBoolean(String key, boolean defaultValue) {
        return get(key).map(v -> {
            if (v.equalsIgnoreCase("true")) {
                return true;
            }
            if (v.equalsIgnoreCase("false")) {
                return false;
            }
            throw new PluginConfigException(key, "expected true or false, got '" + v + "'");
        }).orElse(defaultValue);
    }

    private interface Parser<T> {
        T parse(String s);
    }

    private static <T> T parse(String key, String value, Parser<T> parser, String what) {
        try {
            return parser.parse(value);
        } catch (NumberFormatException e) {
            throw new PluginConfigException(key, "expected " + what + ", got '" + value + "'");
        }
    }

    @Override
    public String toString() {
        return "PluginConfig" + asMap();
    }
}
