package io.kaas.api.plugin;

/** A configuration value a backend cannot use. The message names the key. */
public class PluginConfigException extends RuntimeException {
    private final String key;

    public PluginConfigException(String key, String problem) {
        super("Invalid value for config '" + key + "': " + problem);
        this.key = key;
    }

    /** The offending key. */
    public String key() {
        return key;
    }
}
