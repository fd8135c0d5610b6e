package io.kaas.broker.quota;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.broker.config.BrokerConfig;
import io.kaas.broker.config.ConfigException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QuotaWindowConfigTest {

    @Test
    void kafkasDefaultsAndKeys() {
        BrokerConfig defaults = BrokerConfig.of(Map.of());
        assertThat(defaults.quotaWindowNum()).isEqualTo(11);
        assertThat(defaults.quotaWindowSizeSeconds()).isEqualTo(1);
        BrokerConfig set = BrokerConfig.of(Map.of("quota.window.num", "5", "quota.window.size.seconds", "2"));
        assertThat(set.quotaWindowNum()).isEqualTo(5);
        assertThat(set.quotaWindowSizeSeconds()).isEqualTo(2);
    }

    @Test
    void badValuesAreRefusedNamingTheKey() {
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("quota.window.num", "0")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("quota.window.num");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("quota.window.size.seconds", "one")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("quota.window.size.seconds");
    }
}
