package io.kaas.cluster.files.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.cluster.ClientQuotaEntity;
import io.kaas.api.cluster.ClusterStateException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The files store's client-quotas.json and broker-configs.json: what they hold, and damaged files refused by name. */
class FileClusterStoreDynamicConfigsTest {
    @TempDir
    Path dir;

    @Test
    void theFilesHoldTheQuotasAndTheBrokerConfigsAndNoTemporaryFileIsLeft() throws IOException {
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            store.alterClientQuotas(Map.of(ClientQuotaEntity.of(ClientQuotaEntity.USER, "alice"),
                    Map.of("producer_byte_rate", Optional.of(1024.0))));
            store.updateBrokerConfigs(OptionalInt.empty(), Map.of("log.retention.ms", "1000"));
            store.updateBrokerConfigs(OptionalInt.of(2), Map.of("message.max.bytes", "2000"));
        }
        assertThat(Files.readString(dir.resolve(DynamicConfigFiles.QUOTAS_FILE)))
                .contains("\"user\" : \"alice\"").contains("\"producer_byte_rate\" : 1024.0");
        assertThat(Files.readString(dir.resolve(DynamicConfigFiles.BROKER_CONFIGS_FILE)))
                .contains("\"log.retention.ms\" : \"1000\"").contains("\"2\" : {");
        try (var entries = Files.list(dir)) {
            assertThat(entries.filter(AtomicFiles::isTemp)).isEmpty();
        }
    }

    @Test
    void aDamagedFileFailsTheOpenNamingIt() throws IOException {
        FileClusterStore.open(dir, 1).close();
        Path quotas = dir.resolve(DynamicConfigFiles.QUOTAS_FILE);
        Files.writeString(quotas, "{\"quotas\": [{\"entity\": {\"user\": \"a\", \"ip\": \"1.2.3.4\"}, \"values\": {}}]}");
        assertThatThrownBy(() -> FileClusterStore.open(dir, 1)).isInstanceOf(ClusterStateException.class)
                .hasMessageContaining(quotas.toString()).hasMessageContaining("not a valid client-quota entity");
        Files.writeString(quotas, "{\"quotas\": [{\"entity\": {\"user\": \"a\"}, \"values\": {\"producer_byte_rate\": \"x\"}}]}");
        assertThatThrownBy(() -> FileClusterStore.open(dir, 1)).isInstanceOf(ClusterStateException.class)
                .hasMessageContaining("quota 'producer_byte_rate' is not a number");
        Files.delete(quotas);

        Path configs = dir.resolve(DynamicConfigFiles.BROKER_CONFIGS_FILE);
        Files.writeString(configs, "{\"default\": {}, \"brokers\": {\"one\": {\"a\": \"b\"}}}");
        assertThatThrownBy(() -> FileClusterStore.open(dir, 1)).isInstanceOf(ClusterStateException.class)
                .hasMessageContaining(configs.toString());
        Files.writeString(configs, "{\"default\": {\"log.retention.ms\": 1000}, \"brokers\": {}}");
        assertThatThrownBy(() -> FileClusterStore.open(dir, 1)).isInstanceOf(ClusterStateException.class)
                .hasMessageContaining("'default.log.retention.ms' is not a string");
        Files.writeString(configs, "not json");
        assertThatThrownBy(() -> FileClusterStore.open(dir, 1)).isInstanceOf(ClusterStateException.class)
                .hasMessageContaining(configs.toString());
    }
}
