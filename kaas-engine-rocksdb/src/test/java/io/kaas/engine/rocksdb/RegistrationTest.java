package io.kaas.engine.rocksdb;

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

        assertThat(registration.providers()).containsExactly(RocksDbEngineProvider.class.getName());
        assertThat(registration.module()).isEqualTo("io.kaas.engine.rocksdb");
    }

    @Test
    void providerIsCheapAndNamedRocksdb() {
        assertThat(new RocksDbEngineProvider().name()).isEqualTo("rocksdb");
    }
}
