package io.kaas.broker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code request.timeout.ms} and {@code socket.connection.setup.timeout.ms}: Kafka's defaults, bad values named. */
class InterBrokerTimeoutsConfigTest {

    private static BrokerConfig config(Map<String, String> extra) {
        Map<String, String> values = new HashMap<>();
        values.put("node.id", "1");
        values.put("listeners", "PLAINTEXT://127.0.0.1:0");
        values.putAll(extra);
        return BrokerConfig.of(values);
    }

    @Test
    void kafkasDefaultsAndSetValues() {
        assertThat(config(Map.of()).requestTimeoutMs()).isEqualTo(30_000);
        assertThat(config(Map.of()).connectionSetupTimeoutMs()).isEqualTo(10_000);
        BrokerConfig set = config(Map.of("request.timeout.ms", "1500", "socket.connection.setup.timeout.ms", "700"));
        assertThat(set.requestTimeoutMs()).isEqualTo(1500);
        assertThat(set.connectionSetupTimeoutMs()).isEqualTo(700);
        assertThat(set.unknownKeys()).isEmpty();
    }

    @Test
    void badValuesNameTheKey() {
        for (String key : new String[] {"request.timeout.ms", "socket.connection.setup.timeout.ms"}) {
            assertThatThrownBy(() -> config(Map.of(key, "-1"))).isInstanceOf(ConfigException.class)
                .hasMessageContaining(key);
            assertThatThrownBy(() -> config(Map.of(key, "soon"))).isInstanceOf(ConfigException.class)
                .hasMessageContaining(key);
        }
    }
}
