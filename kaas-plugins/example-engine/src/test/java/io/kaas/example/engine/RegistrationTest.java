package io.kaas.example.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.storage.StorageEngineProvider;
import io.kaas.plugin.tck.ProviderRegistrations.Registration;
import io.kaas.plugin.tck.ProviderRegistrations;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** module-info's {@code provides} and META-INF/services must name the same providers. */
class RegistrationTest {
    @Test
    void moduleInfoAndServicesFileListTheSameProviders() {
        Registration registration = ProviderRegistrations.assertModuleInfoMatchesServices(StorageEngineProvider.class,
                Path.of("target/classes"));

        assertThat(registration.providers()).containsExactly(MemoryEngineProvider.class.getName());
        assertThat(registration.module()).isEqualTo("io.kaas.example.engine");
    }

    @Test
    void providerIsCheapAndNamedMemory() {
        assertThat(new MemoryEngineProvider().name()).isEqualTo("memory");
    }
}
