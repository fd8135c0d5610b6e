package io.kaas.plugins;

import java.nio.file.Path;

/** Where the broker looks for drop-in plugins. */
public final class PluginsDirectory {
    /** The system property the start script sets to the installation directory. */
    public static final String HOME_PROPERTY = "kaas.home";

    private PluginsDirectory() {
    }

    /**
     * The plugins directory: {@code configured} (the {@code plugins.dir} setting) if set, else
     * {@code <kaas.home>/plugins} if the {@value #HOME_PROPERTY} system property is set, else
     * {@code ./plugins}.
     */
    public static Path resolve(String configured) {
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured.strip());
        }
        String home = System.getProperty(HOME_PROPERTY);
        if (home != null && !home.isBlank()) {
            return Path.of(home.strip(), "plugins");
        }
        return Path.of("plugins");
    }
}
