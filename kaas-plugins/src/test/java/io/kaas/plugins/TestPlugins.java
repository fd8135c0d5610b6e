package io.kaas.plugins;

import io.kaas.api.plugin.BackendProvider;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Builds plugin jars and zips in a test: compiles Java sources against kaas-api with the system
 * compiler, so the plugin classes are on no class path the host can see, as in production.
 */
public final class TestPlugins {
    private TestPlugins() {
    }

    /** The kaas-api jar or classes folder the tests run with. */
    public static Path kaasApi() {
        return locationOf(BackendProvider.class);
    }

    /** The jar or classes folder the host loaded {@code type} from. */
    public static Path locationOf(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A jar builder. */
    public static Jar jar() {
        return new Jar();
    }

    /** A test storage engine provider class named {@code pkg.Provider} that answers to {@code name}. */
    public static String engineProvider(String pkg, String name, String extraMembers) {
        return "package " + pkg + ";\n"
                + "import io.kaas.api.storage.*;\n"
                + "public class Provider implements StorageEngineProvider {\n"
                + "  public String name() { return \"" + name + "\"; }\n"
                + "  public StorageEngine open(EngineContext c) { throw new UnsupportedOperationException(); }\n"
                + (extraMembers.contains("spiVersion") ? ""
                        : "  public int spiVersion() { return io.kaas.api.plugin.SpiVersion.MAJOR; }\n")
                + extraMembers
                + "}\n";
    }

    /** Writes a zip plugin: {@code plugin.properties} and {@code lib/} holding {@code libs}. */
    public static Path zip(Path out, Map<String, String> properties, List<Path> libs) throws IOException {
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(out))) {
            zip.putNextEntry(new ZipEntry("plugin.properties"));
            StringBuilder sb = new StringBuilder();
            properties.forEach((k, v) -> sb.append(k).append('=').append(v).append('\n'));
            zip.write(sb.toString().getBytes(StandardCharsets.ISO_8859_1));
            zip.closeEntry();
            zip.putNextEntry(new ZipEntry("lib/"));
            zip.closeEntry();
            for (Path lib : libs) {
                zip.putNextEntry(new ZipEntry("lib/" + lib.getFileName()));
                Files.copy(lib, zip);
                zip.closeEntry();
            }
        }
        return out;
    }

    /** Packs a classes folder (or copies a jar) to {@code out}. */
    public static Path asJar(Path classesOrJar, Path out) throws IOException {
        if (!Files.isDirectory(classesOrJar)) {
            return Files.copy(classesOrJar, out);
        }
        try (JarOutputStream jar = new JarOutputStream(Files.newOutputStream(out))) {
            pack(classesOrJar, jar);
        }
        return out;
    }

    /** Every file and folder under {@code root}, folders as entries of their own as Maven's jar plugin writes them. */
    private static void pack(Path root, JarOutputStream jar) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : (Iterable<Path>) files.sorted()::iterator) {
                String name = root.relativize(file).toString().replace('\\', '/');
                if (name.isEmpty() || name.equals("META-INF/MANIFEST.MF") || name.equals("META-INF")) {
                    continue;
                }
                if (Files.isDirectory(file)) {
                    jar.putNextEntry(new JarEntry(name + "/"));
                } else {
                    jar.putNextEntry(new JarEntry(name));
                    Files.copy(file, jar);
                }
                jar.closeEntry();
            }
        }
    }

    /** Sources, resources and manifest attributes of one jar. */
    public static final class Jar {
        private final Map<String, String> sources = new LinkedHashMap<>();
        private final Map<String, String> resources = new LinkedHashMap<>();
        private final Map<String, String> manifest = new LinkedHashMap<>();
        private final List<Path> classPath = new ArrayList<>(List.of(kaasApi()));
        private boolean modular;

        public Jar source(String className, String code) {
            sources.put(className.replace('.', '/') + ".java", code);
            return this;
        }

        public Jar resource(String path, String text) {
            resources.put(path, text);
            return this;
        }

        /** A service registration in META-INF/services. */
        public Jar service(Class<?> service, String... providers) {
            return resource("META-INF/services/" + service.getName(), String.join("\n", providers) + "\n");
        }

        public Jar manifest(String key, String value) {
            manifest.put(key, value);
            return this;
        }

        /** The PF4J manifest entries of a jar plugin. */
        public Jar pluginId(String id, String version) {
            return manifest("Plugin-Id", id).manifest("Plugin-Version", version);
        }

        public Jar classPath(Path entry) {
            classPath.add(entry);
            return this;
        }

        /** Compiles module-info.java too (kaas-api on the module path). */
        public Jar modular() {
            modular = true;
            return this;
        }

        public Path writeTo(Path out) throws IOException {
            Path work = Files.createTempDirectory("kaas-test-plugin");
            Path src = work.resolve("src");
            Path classes = Files.createDirectories(work.resolve("classes"));
            List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "--release", "17", "-proc:none"));
            String path = String.join(java.io.File.pathSeparator, classPath.stream().map(Path::toString).toList());
            args.addAll(modular ? List.of("--module-path", path) : List.of("-cp", path));
            for (Map.Entry<String, String> s : sources.entrySet()) {
                Path file = src.resolve(s.getKey());
                Files.createDirectories(file.getParent());
                Files.writeString(file, s.getValue());
                args.add(file.toString());
            }
            if (!sources.isEmpty()) {
                JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
                if (javac.run(null, null, null, args.toArray(String[]::new)) != 0) {
                    throw new IllegalStateException("test plugin does not compile: " + sources.keySet());
                }
            }
            for (Map.Entry<String, String> r : resources.entrySet()) {
                Path file = classes.resolve(r.getKey());
                Files.createDirectories(file.getParent());
                Files.writeString(file, r.getValue());
            }
            Manifest mf = new Manifest();
            mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
            manifest.forEach((k, v) -> mf.getMainAttributes().putValue(k, v));
            try (OutputStream os = Files.newOutputStream(out); JarOutputStream jar = new JarOutputStream(os, mf)) {
                if (Files.isDirectory(classes.resolve("META-INF"))) {
                    jar.putNextEntry(new JarEntry("META-INF/"));
                    jar.closeEntry();
                }
                pack(classes, jar);
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            return out;
        }
    }
}
