package io.kaas.plugins.internal;

import io.kaas.api.auth.AuthorizerProvider;
import io.kaas.api.cluster.ClusterStateStoreProvider;
import io.kaas.api.plugin.BackendProvider;
import io.kaas.api.plugin.SpiVersion;
import io.kaas.api.storage.StorageEngineProvider;
import io.kaas.plugins.BackendSelection;
import io.kaas.plugins.BackendSource;
import io.kaas.plugins.internal.DeclaredBackends.Declared;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.pf4j.PluginDescriptor;
import org.pf4j.PluginState;
import org.pf4j.PluginWrapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Backends from drop-in plugins in one directory, loaded with PF4J ({@link KaasPluginManager}).
 * Each entry of the directory is a plugin: a jar (PF4J descriptor in its manifest), a zip (expanded
 * afresh into {@code .work/} at every start: {@code plugin.properties} and {@code lib/*.jar}) or a
 * folder laid out like an expanded zip. Hidden entries and notes ({@code *.md}, {@code *.txt}) are
 * skipped; PF4J itself is only set up when there is at least one candidate, so an empty directory
 * costs the start-up nothing.
 *
 * <p>A plugin that declares its backends ({@link DeclaredBackends}) and none of which is selected is left alone:
 * not expanded, not loaded, only logged and listed as {@link #notLoaded()}. Everything else is loaded when the
 * source is built. Whatever goes wrong with a plugin (it cannot be
 * read, declares an incompatible SPI, registers its providers inconsistently, a provider cannot be
 * loaded or constructed) is logged in full and kept as one line in {@link #problems()}; the catalog
 * fails start-up with it. Plugins stay loaded for the life of the process.
 */
public final class PluginDirectorySource implements BackendSource {
    private static final Logger LOG = LoggerFactory.getLogger(PluginDirectorySource.class);
    /** The host's SPI version as PF4J compares it with a plugin's {@code Plugin-Requires}. */
    static final String HOST_SPI_VERSION = SpiVersion.MAJOR + ".0.0";
    private static final String WORK_DIR = ".work";

    /** Files in the plugins directory that are documentation, not plugins (the distribution ships a README.md). */
    private static final List<String> NOTE_SUFFIXES = List.of(".md", ".txt");

    private final Path directory;
    /** Created for the first candidate plugin; null while there is none. */
    private KaasPluginManager manager;
    private final List<Plugin> plugins;
    private final List<String> problems = Collections.synchronizedList(new ArrayList<>());
    private final BackendSelection selection;
    private final List<NotLoaded> notLoaded = new ArrayList<>();

    /** The config key that selects each kind of backend, as plugins declare their backends. */
    private static final Map<Class<? extends BackendProvider>, String> KEYS = Map.of(
            StorageEngineProvider.class, "storage.engine",
            ClusterStateStoreProvider.class, "cluster.store",
            AuthorizerProvider.class, "authorizer");

    /**
     * A plugin that loaded and started, with where it came from (the jar, zip or folder in the directory) and the
     * backends it declares (empty if it declares none).
     */
    private record Plugin(PluginWrapper wrapper, Path source, Optional<List<Declared>> declared) {
        String origin() {
            PluginDescriptor d = wrapper.getDescriptor();
            return "plugin " + d.getPluginId() + " " + d.getVersion() + " (" + source + ")";
        }
    }

    private PluginDirectorySource(Path directory, BackendSelection selection) {
        this.directory = directory;
        this.selection = selection;
        this.plugins = new ArrayList<>();
    }

    /** Loads and starts every plugin in {@code directory}; a missing directory holds no plugins. */
    public static PluginDirectorySource load(Path directory) {
        return load(directory, BackendSelection.every());
    }

    /**
     * Loads and starts the plugins in {@code directory} that {@code selection} may use: every plugin but those that
     * declare their backends without declaring a selected one. A missing directory holds no plugins.
     */
    public static PluginDirectorySource load(Path directory, BackendSelection selection) {
        Path dir = directory.toAbsolutePath().normalize();
        PluginDirectorySource source = new PluginDirectorySource(dir, selection);
        if (!Files.isDirectory(dir)) {
            LOG.atInfo().addKeyValue("pluginsDir", dir).log("No plugins directory at {}: only built-in backends", dir);
            return source;
        }
        source.loadAll();
        return source;
    }

    @Override
    public List<String> problems() {
        return List.copyOf(problems);
    }

    @Override
    public List<NotLoaded> notLoaded() {
        return List.copyOf(notLoaded);
    }

    /** The directory plugins were loaded from. */
    public Path directory() {
        return directory;
    }

    private void loadAll() {
        List<Path> entries;
        try (Stream<Path> list = Files.list(directory)) {
            entries = list.filter(PluginDirectorySource::isCandidate).sorted().toList();
        } catch (IOException e) {
            problem(directory, "the plugins directory cannot be listed: " + e, e);
            return;
        }
        if (entries.isEmpty()) {
            LOG.atInfo().addKeyValue("pluginsDir", directory).log("No plugins in {}: only built-in backends", directory);
            return;
        }
        List<Plugin> loaded = new ArrayList<>();
        for (Path entry : entries) {
            Optional<List<Declared>> declared;
            try {
                declared = DeclaredBackends.of(entry);
            } catch (IllegalArgumentException e) {
                problem(entry, e.getMessage(), null);
                continue;
            } catch (IOException | RuntimeException e) {
                // Unreadable: loading it says what is wrong with the file, as for any broken plugin.
                LOG.atDebug().setCause(e).log("Cannot read the descriptor of {}", entry);
                declared = Optional.empty();
            }
            if (declared.isPresent() && declared.get().stream().noneMatch(d -> selection.selects(d.key(), d.name()))) {
                leaveOut(entry, declared.get());
                continue;
            }
            if (manager == null) {
                manager = new KaasPluginManager(directory);
            }
            loadEntry(entry, declared).ifPresent(loaded::add);
        }
        if (manager == null) {
            return;
        }
        manager.startPlugins();
        for (Plugin plugin : loaded) {
            PluginWrapper w = plugin.wrapper();
            if (w.getPluginState() != PluginState.STARTED) {
                Throwable cause = w.getFailedException();
                problem(plugin.source(), "plugin " + w.getPluginId() + " failed to start: "
                        + (cause == null ? "state " + w.getPluginState() : oneLine(cause)), cause);
                continue;
            }
            plugins.add(plugin);
            LOG.atInfo().addKeyValue("plugin", w.getPluginId()).addKeyValue("version", w.getDescriptor().getVersion())
                    .addKeyValue("source", plugin.source())
                    .log("Loaded plugin {} {} from {}", w.getPluginId(), w.getDescriptor().getVersion(), plugin.source());
        }
    }

    /** Records and logs a plugin left out because nothing it declares is selected. */
    private void leaveOut(Path entry, List<Declared> declared) {
        for (Declared d : declared) {
            notLoaded.add(new NotLoaded(d.key(), d.name(), entry.toString()));
        }
        String provides = declared.stream().map(Declared::toString).collect(Collectors.joining(", "));
        String selected = declared.stream().map(Declared::key).distinct()
                .map(key -> key + "=" + selection.selected(key).orElse("(none)")).collect(Collectors.joining(", "));
        LOG.atInfo().addKeyValue("source", entry).addKeyValue("provides", provides)
                .log("Not loading the plugin {}: it provides {}, and {} is selected", entry, provides, selected);
    }

    private static boolean isCandidate(Path entry) {
        String name = entry.getFileName().toString();
        if (name.startsWith(".")) {
            return false;
        }
        return Files.isDirectory(entry) || NOTE_SUFFIXES.stream().noneMatch(name::endsWith);
    }

    /** Loads one entry of the directory as a plugin, or records why it cannot be. */
    private Optional<Plugin> loadEntry(Path entry, Optional<List<Declared>> declared) {
        String fileName = entry.getFileName().toString();
        Path pluginPath;
        try {
            if (Files.isDirectory(entry) || fileName.endsWith(".jar")) {
                pluginPath = entry;
            } else if (fileName.endsWith(".zip")) {
                pluginPath = PluginZip.expand(entry, directory.resolve(WORK_DIR));
            } else {
                LOG.atWarn().addKeyValue("file", entry)
                        .log("Ignoring {} in the plugins directory: a plugin is a .jar, a .zip or a folder", entry);
                return Optional.empty();
            }
        } catch (IOException | RuntimeException e) {
            problem(entry, "cannot be expanded: " + oneLine(e), e);
            return Optional.empty();
        }
        String id;
        try {
            id = manager.loadPlugin(pluginPath);
        } catch (RuntimeException e) {
            // The message already says what is wrong with the file (not a jar, no descriptor…): the
            // stack trace, which is PF4J's, helps nobody but a kaas developer, so it goes to DEBUG.
            LOG.atDebug().setCause(e).log("Loading {} failed", entry);
            problem(entry, "cannot be loaded: " + oneLine(e), null);
            return Optional.empty();
        }
        PluginWrapper wrapper = manager.getPlugin(id);
        Optional<String> refusal = refusal(wrapper);
        if (refusal.isPresent()) {
            manager.unloadPlugin(id);
            problem(entry, "plugin " + id + " " + refusal.get(), null);
            return Optional.empty();
        }
        return Optional.of(new Plugin(wrapper, entry, declared));
    }

    /** Why a loaded plugin may not run here: a PF4J plugin class, its SPI range, or inconsistent registrations. */
    private Optional<String> refusal(PluginWrapper wrapper) {
        if (!KaasPluginManager.hasNoPluginClass(wrapper.getDescriptor())) {
            return Optional.of("names a PF4J plugin class (" + wrapper.getDescriptor().getPluginClass()
                    + "), which kaas plugins do not have: a plugin sees no PF4J class; list the backends in"
                    + " META-INF/services and drop Plugin-Class / plugin.class");
        }
        String requires = wrapper.getDescriptor().getRequires();
        if (requires != null && !requires.isBlank() && !requires.strip().equals("*")) {
            boolean ok;
            try {
                ok = manager.getVersionManager().checkVersionConstraint(HOST_SPI_VERSION, requires);
            } catch (RuntimeException e) {
                return Optional.of("has an unreadable Plugin-Requires '" + requires + "' (" + oneLine(e)
                        + "); use a range of kaas SPI versions such as '^" + HOST_SPI_VERSION + "'");
            }
            if (!ok) {
                return Optional.of("was built for kaas SPI '" + requires + "', but this broker has SPI version "
                        + HOST_SPI_VERSION + "; use a build of the plugin for SPI " + SpiVersion.MAJOR);
            }
        }
        try {
            for (Path jar : jarsOf(wrapper.getPluginPath())) {
                Optional<String> mismatch = Registrations.mismatch(jar);
                if (mismatch.isPresent()) {
                    return Optional.of("is packaged inconsistently: " + mismatch.get());
                }
            }
        } catch (IOException e) {
            return Optional.of("cannot be read: " + oneLine(e));
        }
        return Optional.empty();
    }

    /** The jar of a jar plugin; the classes folder and the lib/ jars of a folder plugin. */
    private static List<Path> jarsOf(Path pluginPath) throws IOException {
        if (!Files.isDirectory(pluginPath)) {
            return List.of(pluginPath);
        }
        List<Path> out = new ArrayList<>();
        Path classes = pluginPath.resolve("classes");
        if (Files.isDirectory(classes)) {
            out.add(classes);
        }
        Path lib = pluginPath.resolve("lib");
        if (Files.isDirectory(lib)) {
            try (Stream<Path> jars = Files.list(lib)) {
                jars.filter(p -> p.getFileName().toString().endsWith(".jar")).sorted().forEach(out::add);
            }
        }
        return out;
    }

    @Override
    public <P extends BackendProvider> List<Offer<P>> find(Class<P> kind) {
        List<Offer<P>> offers = new ArrayList<>();
        for (Plugin plugin : plugins) {
            offers.addAll(find(kind, plugin));
        }
        return offers;
    }

    /**
     * The providers of {@code kind} a plugin lists in its own {@code META-INF/services}, as PF4J's
     * {@link org.pf4j.ServiceProviderExtensionFinder} finds them, each constructed with the plugin's
     * context class loader and wrapped so that every later call runs under it too.
     */
    private <P extends BackendProvider> List<Offer<P>> find(Class<P> kind, Plugin plugin) {
        String id = plugin.wrapper().getPluginId();
        ClassLoader loader = plugin.wrapper().getPluginClassLoader();
        List<Class<? extends P>> found = manager.getExtensionClasses(kind, id);
        Set<String> foundNames = found.stream().map(Class::getName).collect(Collectors.toSet());
        for (String listed : listedProviders(loader, kind)) {
            if (!foundNames.contains(listed)) {
                problem(plugin.source(), "plugin " + id + " lists " + listed + " in META-INF/services/" + kind.getName()
                        + " but " + whyNotAProvider(listed, kind, loader), null);
            }
        }
        List<Offer<P>> offers = new ArrayList<>();
        for (Class<? extends P> type : found) {
            P provider;
            try (LoaderSwap ignored = LoaderSwap.to(loader)) {
                provider = type.getConstructor().newInstance();
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                Throwable cause = e instanceof java.lang.reflect.InvocationTargetException ite ? ite.getCause() : e;
                problem(plugin.source(), "plugin " + id + " failed to start: " + kind.getSimpleName() + " " + type.getName()
                        + " cannot be constructed: " + oneLine(cause), cause);
                continue;
            }
            P wrapped = wrap(kind, provider, loader, plugin.wrapper().getDescriptor().getVersion());
            int spi = wrapped.spiVersion();
            if (!SpiVersion.isCompatible(spi)) {
                problem(plugin.source(), "plugin " + id + " was built for kaas SPI version " + spi
                        + ", but this broker has SPI version " + SpiVersion.MAJOR + " (" + type.getName()
                        + "); use a build of the plugin for SPI " + SpiVersion.MAJOR, null);
                continue;
            }
            offers.add(new Offer<>(wrapped, plugin.origin()));
        }
        if (plugin.declared().isPresent() && !declaredAsProvided(kind, plugin, offers)) {
            return List.of();
        }
        return offers;
    }

    /**
     * Whether the backends of {@code kind} a declaring plugin provides are exactly the ones it declares; a mismatch is
     * a problem (a declaration that hides a backend would make the plugin vanish when that backend is selected).
     */
    private <P extends BackendProvider> boolean declaredAsProvided(Class<P> kind, Plugin plugin, List<Offer<P>> offers) {
        String key = KEYS.get(kind);
        Set<String> declared = plugin.declared().orElseThrow().stream().filter(d -> d.key().equals(key))
                .map(Declared::name).collect(Collectors.toCollection(java.util.TreeSet::new));
        Set<String> provided = new java.util.TreeSet<>();
        try {
            offers.forEach(o -> provided.add(o.provider().name()));
        } catch (RuntimeException e) {
            return true; // the catalog logs a provider that cannot name itself and leaves it out
        }
        if (declared.equals(provided)) {
            return true;
        }
        problem(plugin.source(), "plugin " + plugin.wrapper().getPluginId() + " declares " + key + " "
                + (declared.isEmpty() ? "nothing" : declared) + " in " + DeclaredBackends.PROPERTY + "/"
                + DeclaredBackends.MANIFEST_ATTRIBUTE + " but provides " + (provided.isEmpty() ? "none" : provided)
                + "; declare every backend it provides", null);
        return false;
    }

    private static <P extends BackendProvider> P wrap(Class<P> kind, P provider, ClassLoader loader, String version) {
        if (kind == StorageEngineProvider.class) {
            return kind.cast(new PluginStorageEngineProvider((StorageEngineProvider) provider, loader, version));
        }
        if (kind == ClusterStateStoreProvider.class) {
            return kind.cast(new PluginClusterStateStoreProvider((ClusterStateStoreProvider) provider, loader, version));
        }
        if (kind == AuthorizerProvider.class) {
            return kind.cast(new PluginAuthorizerProvider((AuthorizerProvider) provider, loader, version));
        }
        throw new IllegalArgumentException("No plugin wrapper for " + kind.getName());
    }

    /** The class names in the plugin's own (not the host's) {@code META-INF/services/<kind>} files. */
    private static Set<String> listedProviders(ClassLoader loader, Class<?> kind) {
        Set<String> names = new LinkedHashSet<>();
        if (!(loader instanceof URLClassLoader own)) {
            return names;
        }
        try {
            for (URL url : Collections.list(own.findResources("META-INF/services/" + kind.getName()))) {
                try (var in = url.openStream()) {
                    for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\\R")) {
                        int hash = line.indexOf('#');
                        String name = (hash >= 0 ? line.substring(0, hash) : line).strip();
                        if (!name.isEmpty()) {
                            names.add(name);
                        }
                    }
                }
            }
        } catch (IOException e) {
            LOG.atWarn().setCause(e).log("Cannot read the services files of a plugin: {}", e.toString());
        }
        return names;
    }

    /** Why a listed class is not a usable provider: it cannot be loaded, or is not the host's type. */
    private static String whyNotAProvider(String className, Class<?> kind, ClassLoader loader) {
        Class<?> type;
        try {
            type = Class.forName(className, false, loader);
        } catch (ClassNotFoundException e) {
            return "the class is not in the plugin";
        } catch (LinkageError e) {
            return "the class cannot be loaded: " + oneLine(e);
        }
        if (!kind.isAssignableFrom(type)) {
            return "it does not implement the host's " + kind.getName() + " (is it built against kaas-api?)";
        }
        if (loader instanceof URLClassLoader own && own.findResource("META-INF/services") == null) {
            return "PF4J cannot see it: the jar has no META-INF/services/ folder entry (pack the jar with folder entries,"
                    + " as Maven's jar plugin does)";
        }
        return "PF4J did not offer it (see the log)";
    }

    private void problem(Path where, String what, Throwable cause) {
        String line = "Plugin " + directory.relativize(where.toAbsolutePath().normalize()) + " in " + directory + ": " + what;
        problems.add(line);
        LOG.atError().setMessage(line).setCause(cause).addKeyValue("plugin", where).log();
    }

    /** A throwable's message (and its root cause's) on one line. */
    static String oneLine(Throwable e) {
        StringBuilder sb = new StringBuilder(message(e));
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root != e && !sb.toString().contains(message(root))) {
            sb.append(" (").append(message(root)).append(')');
        }
        return sb.toString().replaceAll("\\s*\\R\\s*", " ");
    }

    private static String message(Throwable e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
    }
}
