package io.kaas.cluster.files;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.ClusterStoreContext;
import io.kaas.api.cluster.TopicRecord;
import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.plugin.SpiVersion;
import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileClusterStoreProviderTest {
    private static final String SERVICE = "io.kaas.api.cluster.ClusterStateStoreProvider";

    @TempDir
    Path dataDir;

    @Test
    void isNamedFilesAndBuiltForThisSpi() {
        FileClusterStoreProvider provider = new FileClusterStoreProvider();
        assertThat(provider.name()).isEqualTo("files");
        assertThat(SpiVersion.isCompatible(provider.spiVersion())).isTrue();
    }

    @Test
    void keepsItsFilesUnderClusterDirectoryOfTheDataDir() throws IOException {
        ClusterStoreContext context = new ClusterStoreContext(dataDir, PluginConfig.empty(), 1);
        try (ClusterStateStore store = new FileClusterStoreProvider().open(context)) {
            store.createTopic(new TopicRecord("orders", UUID.randomUUID(), 3, Map.of()));
        }
        assertThat(dataDir.resolve("__cluster/cluster.json")).isRegularFile();
        assertThat(dataDir.resolve("__cluster/topics/orders.json")).isRegularFile();
    }

    @Test
    void moduleInfoAndMetaInfServicesRegisterTheSameProviders() throws IOException, URISyntaxException {
        Path classes = Path.of(FileClusterStoreProvider.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        ModuleDescriptor descriptor = ModuleFinder.of(classes).findAll().stream()
                .map(ModuleReference::descriptor)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no module-info.class in " + classes));
        List<String> provides = descriptor.provides().stream()
                .filter(p -> p.service().equals(SERVICE))
                .flatMap(p -> p.providers().stream())
                .sorted()
                .collect(Collectors.toList());
        List<String> services = Files.readAllLines(classes.resolve("META-INF/services/" + SERVICE), StandardCharsets.UTF_8)
                .stream()
                .map(line -> line.replaceAll("#.*", "").trim())
                .filter(line -> !line.isEmpty())
                .sorted()
                .collect(Collectors.toList());

        assertThat(descriptor.name()).isEqualTo("io.kaas.cluster.files");
        assertThat(provides).containsExactly(FileClusterStoreProvider.class.getName());
        assertThat(services).isEqualTo(provides);
    }
}
