package io.kaas.engine.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.storage.StorageEngineProvider;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** module-info's {@code provides} and META-INF/services must name the same providers. */
class RegistrationTest {
    private static final String SERVICE = StorageEngineProvider.class.getName();

    @Test
    void moduleInfoAndServicesFileListTheSameProviders() throws IOException {
        Path classes = Path.of("target/classes");
        ModuleDescriptor descriptor;
        try (InputStream in = Files.newInputStream(classes.resolve("module-info.class"))) {
            descriptor = ModuleDescriptor.read(in);
        }
        Set<String> provided = descriptor.provides().stream().filter(p -> p.service().equals(SERVICE))
                .flatMap(p -> p.providers().stream()).collect(Collectors.toSet());
        List<String> listed = Arrays.stream(Files.readString(classes.resolve("META-INF/services/" + SERVICE),
                        StandardCharsets.UTF_8).split("\n")).map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();

        assertThat(provided).containsExactly(RocksDbEngineProvider.class.getName());
        assertThat(listed).containsExactlyInAnyOrderElementsOf(provided);
        assertThat(descriptor.name()).isEqualTo("io.kaas.engine.rocksdb");
    }

    @Test
    void providerIsCheapAndNamedRocksdb() {
        assertThat(new RocksDbEngineProvider().name()).isEqualTo("rocksdb");
    }
}
