package io.kaas.plugins;

import io.kaas.api.auth.AuthorizerProvider;
import io.kaas.api.cluster.ClusterStateStoreProvider;
import io.kaas.api.plugin.BackendProvider;
import io.kaas.api.plugin.SpiVersion;
import io.kaas.api.storage.StorageEngineProvider;
import io.kaas.plugins.internal.PluginProvider;
import java.lang.module.ModuleDescriptor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * Every backend found at start-up, and the choice of one per kind by the name given in config. Built
 * once from a list of {@link BackendSource}s; immutable and thread-safe afterwards.
 *
 * <p>A provider class offered by several sources (or found twice by one) counts once. Name conflicts
 * are reported when the name is selected, so a clashing backend nobody selects does not stop the
 * broker: two backends with the selected name, or the selected backend built for another SPI version,
 * fail with a {@link BackendSelectionException}. A plugin that cannot be loaded or started fails
 * {@link #discover(List) discovery} itself, whether or not it is selected: a plugin was put in
 * {@code plugins/} to be used, and silently running without it would hide the mistake.
 */
public final class BackendCatalog {
    private static final Logger LOG = LoggerFactory.getLogger(BackendCatalog.class);

    /** The kinds of backend the host knows, with how messages call them. Each needs a {@code uses} in module-info. */
    private static final Map<Class<? extends BackendProvider>, String> KINDS = new LinkedHashMap<>();

    static {
        KINDS.put(StorageEngineProvider.class, "storage engine");
        KINDS.put(ClusterStateStoreProvider.class, "cluster-state store");
        KINDS.put(AuthorizerProvider.class, "authorizer");
    }

    /** The config key that selects each kind, as plugins name it when they declare their backends. */
    private static final Map<Class<? extends BackendProvider>, String> KEYS = Map.of(
            StorageEngineProvider.class, "storage.engine",
            ClusterStateStoreProvider.class, "cluster.store",
            AuthorizerProvider.class, "authorizer");

    private final List<Entry> entries;
    /** Backends of plugins left out because none of theirs is selected: only named when a name matches nothing. */
    private final List<BackendSource.NotLoaded> notLoaded;

    private record Entry(Class<? extends BackendProvider> kind, BackendProvider provider, FoundBackend found) {
    }

    private BackendCatalog(List<Entry> entries, List<BackendSource.NotLoaded> notLoaded) {
        this.entries = List.copyOf(entries);
        this.notLoaded = List.copyOf(notLoaded);
    }

    /** The built-in backends: {@code BackendCatalog.discover(List.of(BackendSource.builtIn()))}. */
    public static BackendCatalog discover() {
        return discover(List.of(BackendSource.builtIn()));
    }

    /** The built-in backends and every plugin in {@code pluginsDir} (which need not exist). */
    public static BackendCatalog discover(Path pluginsDir) {
        return discover(pluginsDir, BackendSelection.every());
    }

    /**
     * The built-in backends and the plugins in {@code pluginsDir} (which need not exist) that {@code selection} may
     * use: a plugin that declares its backends, none of them selected, is not loaded.
     */
    public static BackendCatalog discover(Path pluginsDir, BackendSelection selection) {
        return discover(List.of(BackendSource.builtIn(), BackendSource.plugins(pluginsDir, selection)));
    }

    /**
     * Asks every source for every kind of backend, in order, and logs one line per backend found.
     *
     * @throws BackendSelectionException (one line: the first problem, and the backends available) if a
     *                                   source reports a problem, such as a plugin that cannot be loaded
     */
    public static BackendCatalog discover(List<BackendSource> sources) {
        List<Entry> entries = new ArrayList<>();
        for (Class<? extends BackendProvider> kind : KINDS.keySet()) {
            Set<Class<?>> seen = new HashSet<>();
            for (BackendSource source : sources) {
                for (BackendSource.Offer<? extends BackendProvider> offer : source.find(kind)) {
                    if (seen.add(PluginProvider.implementation(offer.provider()))) {
                        describe(kind, offer).ifPresent(entries::add);
                    }
                }
            }
        }
        BackendCatalog catalog = new BackendCatalog(entries,
                sources.stream().flatMap(s -> s.notLoaded().stream()).collect(Collectors.toList()));
        List<String> problems = sources.stream().flatMap(s -> s.problems().stream()).collect(Collectors.toList());
        if (!problems.isEmpty()) {
            throw new BackendSelectionException(problems.get(0)
                    + (problems.size() > 1 ? " (and " + (problems.size() - 1) + " more problem(s), see the log)" : "")
                    + "; available: " + catalog.availableOfEveryKind());
        }
        return catalog;
    }

    /**
     * The backend of {@code kind} named {@code name}.
     *
     * @param kind      {@code StorageEngineProvider.class}, {@code ClusterStateStoreProvider.class} or
     *                  {@code AuthorizerProvider.class}
     * @param configKey the config key the name came from, for the message (e.g. {@code storage.engine})
     * @param name      the configured name, compared exactly
     * @throws BackendSelectionException (one line) if no backend, or more than one, has that name, or
     *                                   if the one that has it was built for an incompatible SPI version
     * @throws IllegalArgumentException  if {@code kind} is not a kind of backend the host knows
     */
    public <P extends BackendProvider> P select(Class<P> kind, String configKey, String name)
            throws BackendSelectionException {
        return select(kind, configKey, name, null);
    }

    /**
     * The backend of {@code kind} named {@code name}, or empty if {@code name} is {@code noneName}: for a
     * kind where a reserved name means "no backend at all" ({@code authorizer=none}). The reserved name is
     * listed among the names available when {@code name} matches nothing, and wins over a backend that
     * claims it.
     *
     * @throws BackendSelectionException as {@link #select(Class, String, String)}
     */
    public <P extends BackendProvider> Optional<P> selectOrNone(Class<P> kind, String configKey, String name,
                                                                String noneName) throws BackendSelectionException {
        Objects.requireNonNull(noneName, "noneName");
        if (noneName.equals(name)) {
            return Optional.empty();
        }
        return Optional.of(select(kind, configKey, name, noneName));
    }

    private <P extends BackendProvider> P select(Class<P> kind, String configKey, String name, String noneName)
            throws BackendSelectionException {
        String kindName = kindName(kind);
        Objects.requireNonNull(name, configKey);
        List<Entry> matches = entries.stream()
                .filter(e -> e.kind() == kind && e.found().name().equals(name))
                .collect(Collectors.toList());
        if (matches.isEmpty()) {
            String available = available(kind);
            if (noneName != null) {
                available = available.equals("(none)") ? noneName : noneName + ", " + available;
            }
            throw new BackendSelectionException("No " + kindName + " named '" + name + "' (" + configKey
                    + "); available: " + available);
        }
        if (matches.size() > 1) {
            throw new BackendSelectionException(capitalize(kindName) + " name '" + name + "' (" + configKey
                    + ") is claimed by " + matches.size() + " backends: "
                    + matches.stream().map(BackendCatalog::describe).collect(Collectors.joining(", "))
                    + "; remove all but one");
        }
        Entry entry = matches.get(0);
        int spi = entry.provider().spiVersion();
        if (!SpiVersion.isCompatible(spi)) {
            throw new BackendSelectionException(capitalize(kindName) + " '" + name + "' (" + configKey + ") from "
                    + entry.found().origin() + " was built for kaas SPI version " + spi
                    + ", but this broker has SPI version " + SpiVersion.MAJOR
                    + "; use a build of it for SPI version " + SpiVersion.MAJOR);
        }
        return kind.cast(entry.provider());
    }

    /** Every backend found, of every kind, in discovery order (including ones that would be refused). */
    public List<FoundBackend> all() {
        return entries.stream().map(Entry::found).collect(Collectors.toList());
    }

    /** E.g. {@code storage engines: rocksdb, segments; cluster-state stores: files}. */
    private String availableOfEveryKind() {
        return KINDS.entrySet().stream()
                .map(k -> k.getValue() + "s: " + available(k.getKey()))
                .collect(Collectors.joining("; "));
    }

    private String available(Class<?> kind) {
        String key = KEYS.get(kind);
        String names = java.util.stream.Stream.concat(
                        entries.stream().filter(e -> e.kind() == kind).map(e -> e.found().name()),
                        notLoaded.stream().filter(n -> n.configKey().equals(key)).map(BackendSource.NotLoaded::name))
                .distinct()
                .sorted()
                .collect(Collectors.joining(", "));
        return names.isEmpty() ? "(none)" : names;
    }

    /** Reads what the provider says about itself; a provider that throws while doing so is logged and left out. */
    private static Optional<Entry> describe(Class<? extends BackendProvider> kind,
                                                      BackendSource.Offer<? extends BackendProvider> offer) {
        BackendProvider provider = offer.provider();
        String kindName = kindName(kind);
        FoundBackend found;
        int spi;
        try {
            found = new FoundBackend(kindName, provider.name(), versionOf(provider), offer.origin());
            spi = provider.spiVersion();
        } catch (RuntimeException e) {
            LOG.atError().setMessage("Skipping {} {} from {}: it failed to describe itself")
                    .addArgument(kindName).addArgument(provider.getClass().getName()).addArgument(offer.origin())
                    .addKeyValue("origin", offer.origin()).setCause(e).log();
            return Optional.empty();
        }
        boolean compatible = SpiVersion.isCompatible(spi);
        LOG.atLevel(compatible ? Level.INFO : Level.WARN)
                .setMessage("Found {} '{}' version {} from {}{}")
                .addArgument(kindName).addArgument(found.name()).addArgument(found.version()).addArgument(found.origin())
                .addArgument(compatible ? "" : " (built for SPI version " + spi + ", this broker has "
                        + SpiVersion.MAJOR + ": it cannot be used)")
                .addKeyValue("kind", kindName).addKeyValue("name", found.name())
                .addKeyValue("version", found.version()).addKeyValue("origin", found.origin())
                .log();
        return Optional.of(new Entry(kind, provider, found));
    }

    /**
     * What the provider says, else the version of its module: on the module path a package carries
     * no manifest attributes ({@link Package#getImplementationVersion()} is null in a named module),
     * but a module compiled with {@code --module-version} (as the build does) carries its version.
     */
    private static String versionOf(BackendProvider provider) {
        String version = provider.version();
        if (version != null && !version.isBlank() && !version.equals("unknown")) {
            return version;
        }
        ModuleDescriptor descriptor = PluginProvider.implementation(provider).getModule().getDescriptor();
        return descriptor == null ? "unknown" : descriptor.rawVersion().orElse("unknown");
    }

    private static String describe(Entry entry) {
        return PluginProvider.implementation(entry.provider()).getName() + " from " + entry.found().origin();
    }

    private static String kindName(Class<?> kind) {
        String name = KINDS.get(kind);
        if (name == null) {
            throw new IllegalArgumentException("Not a kind of backend: " + kind.getName() + "; known kinds: "
                    + KINDS.keySet().stream().map(Class::getSimpleName).sorted().collect(Collectors.joining(", ")));
        }
        return name;
    }

    private static String capitalize(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
