package io.kaas.broker.config;

/** A configuration the broker cannot start with. The message is one line and names the key. */
public class ConfigException extends RuntimeException {
    private final String key;

    public ConfigException(String key, String problem) {
        super(key == null ? problem : "Invalid value for config '" + key + "': " + problem);
        this.key = key;
    }

    /** The offending key, or null when the problem is not about one key (e.g. an unreadable file). */
    public String key() {
        return key;
    }
}
