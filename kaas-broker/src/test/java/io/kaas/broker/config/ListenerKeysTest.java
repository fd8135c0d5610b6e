package io.kaas.broker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Kafka's listener rules, the inter-broker listener keys and the {@code ssl.*} keys as known keys. */
class ListenerKeysTest {

    private static final String TWO = "A://127.0.0.1:0,B://127.0.0.1:0";
    private static final String MAP = "A:PLAINTEXT,B:SSL";

    @Test
    void bothInterBrokerKeysSetIsAnError() {
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("listeners", TWO, "listener.security.protocol.map", MAP,
            "inter.broker.listener.name", "A", "security.inter.broker.protocol", "PLAINTEXT")))
            .isInstanceOf(ConfigException.class)
            .hasMessageContaining("Only one of inter.broker.listener.name and security.inter.broker.protocol should be set.");
    }

    @Test
    void theInterBrokerListenerMustBeAdvertised() {
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("listeners", TWO, "listener.security.protocol.map", MAP,
            "advertised.listeners", "A://localhost:0", "inter.broker.listener.name", "b")))
            .isInstanceOf(ConfigException.class)
            .satisfies(e -> assertThat(((ConfigException) e).key()).isEqualTo("inter.broker.listener.name"))
            .hasMessageContaining("must be a listener name defined in advertised.listeners")
            .hasMessageContaining("are A");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("listeners", TWO, "listener.security.protocol.map", MAP,
            "inter.broker.listener.name", "C")))
            .hasMessageContaining("Listener with name C defined in inter.broker.listener.name not found");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("listeners", TWO, "listener.security.protocol.map", MAP,
            "security.inter.broker.protocol", "SASL_SSL")))
            .satisfies(e -> assertThat(((ConfigException) e).key()).isEqualTo("security.inter.broker.protocol"));
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("listeners", TWO, "listener.security.protocol.map", MAP,
            "security.inter.broker.protocol", "TLS")))
            .hasMessageContaining("'TLS' is not a security protocol");
    }

    @Test
    void theInterBrokerListenerIsKeptForTheScaleOut() {
        assertThat(BrokerConfig.of(Map.of("listeners", TWO, "listener.security.protocol.map", MAP,
            "inter.broker.listener.name", "b")).interBrokerListenerName()).isEqualTo("B");
        assertThat(BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0,SSL://127.0.0.1:0",
            "security.inter.broker.protocol", "SSL")).interBrokerListenerName()).isEqualTo("SSL");
        assertThat(BrokerConfig.of(Map.of("listeners", TWO, "listener.security.protocol.map", MAP))
            .interBrokerListenerName()).isEqualTo("A");
    }

    @Test
    void advertisedNamesMustBeBoundOnes() {
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("listeners", TWO, "listener.security.protocol.map",
            "A:PLAINTEXT,B:SSL,C:PLAINTEXT", "advertised.listeners", "A://localhost:1,C://localhost:2")))
            .isInstanceOf(ConfigException.class)
            .hasMessageContaining("advertised.listeners listener names must be equal to or a subset of the ones defined "
                + "in listeners. Found A,C");
    }

    @Test
    void aListenerNameGivenTwiceIsAnError() {
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("listeners", "A://127.0.0.1:0,a://127.0.0.1:1",
            "listener.security.protocol.map", "A:PLAINTEXT")))
            .hasMessageContaining("Each listener must have a different name");
    }

    @Test
    void sslKeysAreKnownTheirSecretsHiddenAndListenerOverridesNeitherUnknownNorIgnored() {
        BrokerConfig c = BrokerConfig.of(Map.of("listeners", TWO, "listener.security.protocol.map", MAP,
            "ssl.keystore.location", "/ks.p12", "ssl.keystore.password", "s3cret",
            "listener.name.b.ssl.key.password", "k3y", "listener.name.b.ssl.client.auth", "required",
            "ssl.endpoint.identification.algorithm", ""));
        assertThat(c.unknownKeys()).isEmpty();
        assertThat(c.ignoredKeys()).containsExactly("ssl.endpoint.identification.algorithm");
        ConfigEntry password = entry(c, "ssl.keystore.password");
        assertThat(password.value()).isNull();
        assertThat(password.sensitive()).isTrue();
        assertThat(password.type()).isEqualTo("PASSWORD");
        assertThat(entry(c, "ssl.keystore.location").value()).isEqualTo("/ks.p12");
        assertThat(entry(c, "ssl.enabled.protocols").value()).isEqualTo("TLSv1.2,TLSv1.3");
        assertThat(entry(c, "ssl.enabled.protocols").type()).isEqualTo("LIST");
        assertThat(entry(c, "ssl.client.auth").value()).isEqualTo("none");
        assertThat(entry(c, "ssl.keystore.type").value()).isEqualTo("JKS");
        assertThat(c.toString()).doesNotContain("s3cret", "k3y").contains("/ks.p12");
    }

    private static ConfigEntry entry(BrokerConfig c, String name) {
        return c.entries().stream().filter(e -> e.name().equals(name)).findFirst().orElseThrow();
    }
}
