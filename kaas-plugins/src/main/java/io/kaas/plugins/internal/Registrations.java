package io.kaas.plugins.internal;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The two ways a jar registers kaas backends, compared: {@code META-INF/services/io.kaas.api.…}
 * (read on the class path, and by PF4J) and {@code provides … with …} in {@code module-info}
 * (read on the module path). Where a jar has both, they must name the same providers for every
 * kaas service, or the jar behaves differently depending on how it is loaded.
 */
public final class Registrations {
    private static final String SERVICES = "META-INF/services/";
    private static final String KAAS_SERVICE_PREFIX = "io.kaas.api.";

    private Registrations() {
    }

    /**
     * A one-line description of how the registrations of {@code jarOrClasses} (a jar, or a directory
     * of classes) differ, or empty if they agree or the jar has no {@code module-info}.
     */
    public static Optional<String> mismatch(Path jarOrClasses) throws IOException {
        Map<String, Set<String>> listed;
        Optional<ModuleDescriptor> module;
        if (Files.isDirectory(jarOrClasses)) {
            listed = servicesInDirectory(jarOrClasses);
            module = moduleInDirectory(jarOrClasses);
        } else {
            try (JarFile jar = new JarFile(jarOrClasses.toFile())) {
                listed = servicesInJar(jar);
                module = moduleInJar(jar);
            }
        }
        if (module.isEmpty()) {
            return Optional.empty();
        }
        Map<String, Set<String>> provided = new TreeMap<>();
        for (ModuleDescriptor.Provides p : module.get().provides()) {
            if (p.service().startsWith(KAAS_SERVICE_PREFIX)) {
                provided.computeIfAbsent(p.service(), s -> new TreeSet<>()).addAll(p.providers());
            }
        }
        if (provided.equals(listed)) {
            return Optional.empty();
        }
        return Optional.of(jarOrClasses.getFileName() + " registers its providers two different ways: META-INF/services lists "
                + listed + " but module-info (" + module.get().name() + ") provides " + provided
                + "; list the same classes in both");
    }

    private static Map<String, Set<String>> servicesInJar(JarFile jar) throws IOException {
        Map<String, Set<String>> out = new TreeMap<>();
        for (JarEntry entry : (Iterable<JarEntry>) jar.stream()::iterator) {
            String name = entry.getName();
            if (!entry.isDirectory() && name.startsWith(SERVICES + KAAS_SERVICE_PREFIX)) {
                try (InputStream in = jar.getInputStream(entry)) {
                    add(out, name.substring(SERVICES.length()), new String(in.readAllBytes(), StandardCharsets.UTF_8));
                }
            }
        }
        return out;
    }

    private static Map<String, Set<String>> servicesInDirectory(Path classes) throws IOException {
        Map<String, Set<String>> out = new TreeMap<>();
        Path services = classes.resolve(SERVICES);
        if (!Files.isDirectory(services)) {
            return out;
        }
        try (Stream<Path> files = Files.list(services)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                String service = file.getFileName().toString();
                if (service.startsWith(KAAS_SERVICE_PREFIX) && Files.isRegularFile(file)) {
                    add(out, service, Files.readString(file, StandardCharsets.UTF_8));
                }
            }
        }
        return out;
    }

    /** Adds the provider class names of one services file: one per line, {@code #} starts a comment. */
    private static void add(Map<String, Set<String>> out, String service, String text) {
        Set<String> providers = new TreeSet<>();
        for (String line : text.split("\\R")) {
            int hash = line.indexOf('#');
            String name = (hash >= 0 ? line.substring(0, hash) : line).strip();
            if (!name.isEmpty()) {
                providers.add(name);
            }
        }
        if (!providers.isEmpty()) {
            out.computeIfAbsent(service, s -> new TreeSet<>()).addAll(providers);
        }
    }

    /** The root module-info.class, else the one of the highest release in a multi-release jar. */
    private static Optional<ModuleDescriptor> moduleInJar(JarFile jar) throws IOException {
        List<JarEntry> candidates = new ArrayList<>();
        jar.stream().filter(e -> e.getName().equals("module-info.class")
                || e.getName().matches("META-INF/versions/\\d+/module-info\\.class")).forEach(candidates::add);
        Optional<JarEntry> chosen = candidates.stream().max(Comparator.comparingInt(e -> release(e.getName())));
        if (chosen.isEmpty()) {
            return Optional.empty();
        }
        try (InputStream in = jar.getInputStream(chosen.get())) {
            return Optional.of(ModuleDescriptor.read(in));
        }
    }

    private static Optional<ModuleDescriptor> moduleInDirectory(Path classes) throws IOException {
        Path file = classes.resolve("module-info.class");
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try (InputStream in = Files.newInputStream(file)) {
            return Optional.of(ModuleDescriptor.read(in));
        }
    }

    /** 0 for the root entry, N for META-INF/versions/N/…; the root entry loses to any versioned one. */
    private static int release(String entryName) {
        if (!entryName.startsWith("META-INF/versions/")) {
            return 0;
        }
        String rest = entryName.substring("META-INF/versions/".length());
        return Integer.parseInt(rest.substring(0, rest.indexOf('/')));
    }
}
