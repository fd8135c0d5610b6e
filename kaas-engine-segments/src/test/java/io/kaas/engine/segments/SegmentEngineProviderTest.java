package io.kaas.engine.segments;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.storage.EngineContext;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.StorageEngine;
import io.kaas.api.storage.StorageEngineProvider;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SegmentEngineProviderTest {
    private static final String SERVICE = StorageEngineProvider.class.getName();
    private static final Path MODULE_INFO_SOURCE = Path.of("src/main/java/module-info.java");
    private static final Path SERVICES_FILE = Path.of("src/main/resources/META-INF/services/" + SERVICE);

    @Test
    void moduleInfoAndServicesFileDeclareTheSameProviders() throws IOException {
        Set<String> services = Files.readAllLines(SERVICES_FILE, StandardCharsets.UTF_8).stream()
                .map(l -> l.replaceAll("#.*", "").strip()).filter(l -> !l.isEmpty()).collect(Collectors.toSet());

        assertThat(providesInSource()).isEqualTo(services).isNotEmpty();
        assertThat(providesInCompiledDescriptor()).isEqualTo(services);
    }

    @Test
    void providerIsNamedSegmentsAndOpensAWorkingEngine(@TempDir Path dataDir) throws IOException {
        StorageEngineProvider provider = new SegmentEngineProvider();
        assertThat(provider.name()).isEqualTo("segments");
        try (StorageEngine engine = provider.open(new EngineContext(dataDir, PluginConfig.empty(), 1, Clock.systemUTC()))) {
            PartitionKey key = new PartitionKey("t", UUID.randomUUID(), 3);
            assertThat(engine.openPartition(key, LogConfig.defaults())).isSameAs(engine.openPartition(key, LogConfig.defaults()));
            engine.deletePartition(key);
            assertThat(dataDir.resolve("t/3")).doesNotExist();
        }
    }

    private static Set<String> providesInSource() throws IOException {
        String source = Files.readString(MODULE_INFO_SOURCE).replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//.*", "");
        Matcher m = Pattern.compile("provides\\s+([\\w.]+)\\s+with\\s+([\\w.,\\s]+);").matcher(source);
        Set<String> out = new java.util.HashSet<>();
        while (m.find()) {
            if (m.group(1).equals(SERVICE)) {
                for (String impl : m.group(2).split(",")) {
                    out.add(impl.strip());
                }
            }
        }
        return out;
    }

    private static Set<String> providesInCompiledDescriptor() throws IOException {
        try (InputStream in = Files.newInputStream(Path.of("target/classes/module-info.class"))) {
            ModuleDescriptor descriptor = ModuleDescriptor.read(in);
            assertThat(descriptor.name()).isEqualTo("io.kaas.engine.segments");
            return descriptor.provides().stream().filter(p -> p.service().equals(SERVICE))
                    .map(ModuleDescriptor.Provides::providers).flatMap(List::stream).collect(Collectors.toSet());
        }
    }
}
