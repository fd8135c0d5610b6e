package io.kaas.plugins;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Which backend the broker will select of each kind, by the config key that selects it ({@code storage.engine},
 * {@code cluster.store}, {@code authorizer}) and the name configured there. Discovery uses it to leave plugins out:
 * a plugin that declares its backends ({@code plugin.backends}, see {@code docs/writing-a-plugin.md}) is loaded only
 * when one of them is selected, so a plugin nobody selects costs neither its expansion, its class loader nor its
 * memory. A plugin that declares nothing is always loaded.
 */
public final class BackendSelection {
    private static final BackendSelection EVERY = new BackendSelection(null);

    /** Config key to selected name; null for {@link #every()}. */
    private final Map<String, String> names;

    private BackendSelection(Map<String, String> names) {
        this.names = names;
    }

    /** Loads every plugin, whatever it declares (tools that list backends, and tests). */
    public static BackendSelection every() {
        return EVERY;
    }

    /**
     * The names selected per config key, e.g. {@code of(Map.of("storage.engine", "segments", "cluster.store",
     * "files"))}. A kind left out selects nothing of that kind.
     */
    public static BackendSelection of(Map<String, String> namesByKey) {
        Objects.requireNonNull(namesByKey, "namesByKey");
        return new BackendSelection(new TreeMap<>(namesByKey));
    }

    /** Whether the backend named {@code name} of the kind selected by {@code configKey} will be selected. */
    public boolean selects(String configKey, String name) {
        return names == null || name.equals(names.get(configKey));
    }

    /** The name selected for {@code configKey}, if this selection names one. */
    public Optional<String> selected(String configKey) {
        return names == null ? Optional.empty() : Optional.ofNullable(names.get(configKey));
    }

    @Override
    public String toString() {
        return names == null ? "every backend" : names.toString();
    }
}
