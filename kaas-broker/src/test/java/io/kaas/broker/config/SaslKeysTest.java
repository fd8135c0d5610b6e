package io.kaas.broker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SaslKeysTest {

    private static ListenerConfig listener(Map<String, String> more) {
        Map<String, String> values = new HashMap<>(Map.of("listeners", "SASL_PLAINTEXT://127.0.0.1:0"));
        values.putAll(more);
        return BrokerConfig.of(values).listenerConfigs().get(0);
    }

    @Test
    void enabledMechanismsDefaultToKafkasGssapiAndTheListenerWins() {
        assertThat(SaslKeys.enabledMechanisms(listener(Map.of()))).containsExactly("GSSAPI");
        assertThat(SaslKeys.enabledMechanisms(listener(Map.of("sasl.enabled.mechanisms", " PLAIN, OAUTHBEARER,PLAIN"))))
            .containsExactly("PLAIN", "OAUTHBEARER");
        assertThat(SaslKeys.enabledMechanisms(listener(Map.of("sasl.enabled.mechanisms", "PLAIN",
            "listener.name.sasl_plaintext.sasl.enabled.mechanisms", "OAUTHBEARER")))).containsExactly("OAUTHBEARER");
    }

    @Test
    void maxReauthMsIsLookedUpPerMechanismThenListenerThenBroker() {
        assertThat(SaslKeys.maxReauthMs(listener(Map.of()), "PLAIN")).isZero();
        assertThat(SaslKeys.maxReauthMs(listener(Map.of("connections.max.reauth.ms", "5000")), "PLAIN")).isEqualTo(5000);
        ListenerConfig l = listener(Map.of("connections.max.reauth.ms", "5000",
            "listener.name.sasl_plaintext.connections.max.reauth.ms", "4000",
            "listener.name.sasl_plaintext.oauthbearer.connections.max.reauth.ms", "3000"));
        assertThat(SaslKeys.maxReauthMs(l, "PLAIN")).isEqualTo(4000);
        assertThat(SaslKeys.maxReauthMs(l, "OAUTHBEARER")).isEqualTo(3000);
        assertThatThrownBy(() -> SaslKeys.maxReauthMs(listener(Map.of(
                "listener.name.sasl_plaintext.plain.connections.max.reauth.ms", "-5")), "PLAIN"))
            .isInstanceOf(ConfigException.class)
            .hasMessageContaining("listener.name.sasl_plaintext.plain.connections.max.reauth.ms");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("connections.max.reauth.ms", "soon")))
            .isInstanceOf(ConfigException.class).hasMessageContaining("connections.max.reauth.ms");
    }

    @Test
    void failedAuthenticationDelayDefaultsTo100() {
        assertThat(SaslKeys.failedAuthenticationDelayMs(BrokerConfig.defaults())).isEqualTo(100);
        assertThat(SaslKeys.failedAuthenticationDelayMs(BrokerConfig.of(Map.of(
            "connection.failed.authentication.delay.ms", "0")))).isZero();
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("connection.failed.authentication.delay.ms", "-1")))
            .isInstanceOf(ConfigException.class).hasMessageContaining("connection.failed.authentication.delay.ms");
    }

    @Test
    void theKeysTheSaslCodeReadsAreNeitherUnknownNorWithoutEffect() {
        BrokerConfig config = BrokerConfig.of(Map.of("listeners", "SASL_PLAINTEXT://127.0.0.1:0",
            "sasl.enabled.mechanisms", "PLAIN",
            "listener.name.sasl_plaintext.plain.sasl.jaas.config", "x required;",
            "plain.sasl.jaas.config", "x required;",
            "sasl.oauthbearer.expected.audience", "a",
            "listener.name.sasl_plaintext.oauthbearer.sasl.oauthbearer.jwks.endpoint.url", "file:/x",
            "listener.name.sasl_plaintext.oauthbearer.sasl.server.callback.handler.class", "c",
            "sasl.kerberos.service.name", "kafka",
            "plain.something.else", "x"));
        assertThat(config.ignoredKeys()).containsExactly("sasl.kerberos.service.name");
        assertThat(config.unknownKeys()).containsExactly("plain.something.else");
    }
}
