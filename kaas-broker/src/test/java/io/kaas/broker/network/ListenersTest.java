package io.kaas.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.config.BrokerConfig;
import io.kaas.broker.config.ListenerConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code ssl.*} values each listener's TLS is built from. */
class ListenersTest {

    private static ListenerConfig listener(BrokerConfig config, String name) {
        return config.listenerConfigs().stream().filter(l -> l.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void aListenersOwnValueOverridesTheBrokerWideOne() {
        BrokerConfig c = BrokerConfig.of(Map.of("listeners", "A://127.0.0.1:0,B://127.0.0.1:0",
            "listener.security.protocol.map", "A:SSL,B:SSL",
            "ssl.keystore.location", "/all.p12", "listener.name.b.ssl.keystore.location", "/b.p12",
            "ssl.client.auth", "required"));
        assertThat(Listeners.sslValues(listener(c, "A")))
            .containsEntry("ssl.keystore.location", "/all.p12").containsEntry("ssl.client.auth", "required");
        assertThat(Listeners.sslValues(listener(c, "B")))
            .containsEntry("ssl.keystore.location", "/b.p12").containsEntry("ssl.client.auth", "required");
    }

    @Test
    void onSaslSslOnlyTheListenersOwnClientAuthCounts() {
        BrokerConfig c = BrokerConfig.of(Map.of("listeners", "S://127.0.0.1:0,T://127.0.0.1:0",
            "listener.security.protocol.map", "S:SASL_SSL,T:SASL_SSL",
            "ssl.client.auth", "required", "listener.name.t.ssl.client.auth", "requested"));
        assertThat(Listeners.sslValues(listener(c, "S"))).doesNotContainKey("ssl.client.auth");
        assertThat(Listeners.sslValues(listener(c, "T"))).containsEntry("ssl.client.auth", "requested");
    }
}
