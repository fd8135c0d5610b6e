package io.kaas.plugin.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.module.ModuleDescriptor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Checks that a plugin registers its providers both ways, and the same way: {@code provides} in
 * {@code module-info} (read on the module path) and {@code META-INF/services} (read on the class path
 * and by the plugin host). Call it from a unit test on the module's compiled classes:
 *
 * <pre>{@code
 * @Test
 * void moduleInfoAndServicesFileListTheSameProviders() {
 *     Registration registration = ProviderRegistrations.assertModuleInfoMatchesServices(
 *             StorageEngineProvider.class, Path.of("target/classes"));
 *     assertThat(registration.providers()).containsExactly(MyEngineProvider.class.getName());
 *     assertThat(registration.module()).isEqualTo("com.example.engine");
 * }
 * }</pre>
 */
public final class ProviderRegistrations {
    private ProviderRegistrations() {
    }

    /** What a module registers for one service: its module name and the provider class names. */
    public record Registration(String module, Set<String> providers) {
    }

    /**
     * Asserts that {@code classesDir/module-info.class} {@code provides} {@code service} with exactly
     * the classes listed in {@code classesDir/META-INF/services/<service>}, and at least one.
     *
     * @return the module name and the providers, for further assertions
     * @throws AssertionError when either form is missing or the two disagree
     */
    public static Registration assertModuleInfoMatchesServices(Class<?> service, Path classesDir) {
        String name = service.getName();
        ModuleDescriptor descriptor = readDescriptor(classesDir.resolve("module-info.class"));
        Set<String> provided = descriptor.provides().stream().filter(p -> p.service().equals(name))
                .flatMap(p -> p.providers().stream()).collect(Collectors.toUnmodifiableSet());
        List<String> listed = servicesFile(classesDir.resolve("META-INF/services/" + name));

        assertThat(provided).as("module %s provides %s with", descriptor.name(), name).isNotEmpty();
        assertThat(listed).as("META-INF/services/%s", name).containsExactlyInAnyOrderElementsOf(provided);
        return new Registration(descriptor.name(), provided);
    }

    private static ModuleDescriptor readDescriptor(Path moduleInfo) {
        assertThat(moduleInfo).as("compiled module-info").isRegularFile();
        try (InputStream in = Files.newInputStream(moduleInfo)) {
            return ModuleDescriptor.read(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The class names in a services file: one a line, {@code #} comments and blank lines ignored. */
    private static List<String> servicesFile(Path file) {
        assertThat(file).as("services file").isRegularFile();
        try {
            return Arrays.stream(Files.readString(file, StandardCharsets.UTF_8).split("\n"))
                    .map(line -> line.replaceFirst("#.*", "").strip()).filter(line -> !line.isEmpty()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
