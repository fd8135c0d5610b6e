package io.kaas.api.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClientQuotaEntityTest {
    @Test
    void kafkasCombinationsAreEntitiesEqualByValueAndImmutable() {
        Map<String, String> entries = new HashMap<>(Map.of("user", "alice", "client-id", "app"));
        ClientQuotaEntity entity = new ClientQuotaEntity(entries);
        entries.put("user", "bob");
        assertThat(entity).isEqualTo(ClientQuotaEntity.of("client-id", "app", "user", "alice"));
        assertThat(entity.name(ClientQuotaEntity.USER)).isEqualTo("alice");
        assertThat(ClientQuotaEntity.of("ip", ClientQuotaEntity.DEFAULT_NAME).isDefault("ip")).isTrue();
        assertThat(ClientQuotaEntity.of("client-id", "x").isDefault("client-id")).isFalse();
        assertThatThrownBy(() -> entity.entries().put("ip", "1")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void otherCombinationsAndMalformedFactoriesAreRefused() {
        assertThatThrownBy(() -> ClientQuotaEntity.of("user", "a", "ip", "1.2.3.4"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a valid client-quota entity");
        assertThatThrownBy(() -> new ClientQuotaEntity(Map.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ClientQuotaEntity.of("group", "g")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ClientQuotaEntity.of("user", "a", "client-id")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ClientQuotaEntity.of("user", "a", "user", "b"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("named twice");
        assertThatThrownBy(() -> ClientQuotaEntity.of("user", null)).isInstanceOf(NullPointerException.class);
    }
}
