package io.kaas.broker.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The backends-never-import-the-broker rule over the drop-in plugins (RocksDB engine, example engine),
 * whose classes reach the broker only as zips (copied to {@code target/test-plugins} by the pom): their
 * own {@code kaas-*} jars are taken out of each zip and scanned.
 */
class PluginLayeringTest {
    private static final Path BUILT_PLUGINS = Path.of("target", "test-plugins");

    @TempDir
    Path dir;

    @Test
    void theDropInPluginsNeverImportTheBroker() throws IOException {
        List<Path> jars = new ArrayList<>();
        try (DirectoryStream<Path> zips = Files.newDirectoryStream(BUILT_PLUGINS, "*.zip")) {
            for (Path zip : zips) {
                jars.addAll(ownJars(zip));
            }
        }
        List<JarFile> opened = new ArrayList<>();
        JavaClasses classes;
        try {
            for (Path jar : jars) {
                opened.add(new JarFile(jar.toFile()));
            }
            classes = new ClassFileImporter().importJars(opened);
        } finally {
            for (JarFile j : opened) {
                j.close();
            }
        }
        Set<String> packages = classes.stream().map(JavaClass::getPackageName).collect(Collectors.toSet());
        assertThat(packages).contains("io.kaas.engine.rocksdb", "io.kaas.example.engine");
        LayeringTest.BACKENDS_NEVER_IMPORT_THE_BROKER.check(classes);
    }

    /** The zip's {@code lib/kaas-*.jar} entries, extracted into the test's directory. */
    private List<Path> ownJars(Path zip) throws IOException {
        List<Path> out = new ArrayList<>();
        try (ZipFile z = new ZipFile(zip.toFile())) {
            for (ZipEntry e : z.stream().toList()) {
                String name = e.getName();
                if (name.startsWith("lib/kaas-") && name.endsWith(".jar")) {
                    Path target = dir.resolve(zip.getFileName() + "-" + name.substring("lib/".length()));
                    try (InputStream in = z.getInputStream(e)) {
                        Files.copy(in, target);
                    }
                    out.add(target);
                }
            }
        }
        return out;
    }
}
