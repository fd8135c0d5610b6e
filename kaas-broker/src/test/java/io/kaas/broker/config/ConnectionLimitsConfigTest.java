package io.kaas.broker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConnectionLimitsConfigTest {

    private static final Map<String, String> TWO_LISTENERS = Map.of(
        "listeners", "PLAINTEXT://127.0.0.1:0,INTERNAL://127.0.0.1:0",
        "listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,INTERNAL:PLAINTEXT");

    private static ConnectionLimitsConfig limits(Map<String, String> extra) {
        Map<String, String> values = new HashMap<>(TWO_LISTENERS);
        values.putAll(extra);
        return BrokerConfig.of(values).connectionLimits();
    }

    @Test
    void defaultsAreKafkas() {
        ConnectionLimitsConfig c = limits(Map.of());
        assertThat(c.maxConnections()).isEqualTo(Integer.MAX_VALUE);
        assertThat(c.maxConnections("PLAINTEXT")).isEqualTo(Integer.MAX_VALUE);
        assertThat(c.maxConnectionsPerIp()).isEqualTo(Integer.MAX_VALUE);
        assertThat(c.perIpOverrides()).isEmpty();
        assertThat(c.queuedMaxRequests()).isEqualTo(500);
        assertThat(c.queuedMaxRequestBytes()).as("no bound").isEqualTo(-1);
        assertThat(limits(Map.of("queued.max.request.bytes", "1048576")).queuedMaxRequestBytes()).isEqualTo(1048576);
        assertThat(BrokerConfig.of(TWO_LISTENERS).entries()).extracting(ConfigEntry::name)
            .contains("max.connections", "max.connections.per.ip", "max.connections.per.ip.overrides", "queued.max.requests",
                "queued.max.request.bytes");
        assertThat(BrokerConfig.of(Map.of("max.connections", "5", "listener.name.plaintext.max.connections", "2"))
            .unknownKeys()).isEmpty();
    }

    @Test
    void aListenerTakesItsOwnMaxConnectionsElseTheBrokerWideOne() {
        ConnectionLimitsConfig c = limits(Map.of("max.connections", "10", "listener.name.internal.max.connections", "3"));
        assertThat(c.maxConnections()).isEqualTo(10);
        assertThat(c.maxConnections("INTERNAL")).isEqualTo(3);
        assertThat(c.maxConnections("PLAINTEXT")).isEqualTo(10);
    }

    @Test
    void perIpOverridesAreHostColonCountSplitAtTheLastColon() {
        ConnectionLimitsConfig c = limits(Map.of("max.connections.per.ip", "0",
            "max.connections.per.ip.overrides", " localhost:5 , 127.0.0.1:200,::1:7"));
        assertThat(c.maxConnectionsPerIp()).isZero();
        assertThat(c.perIpOverrides()).containsOnly(Map.entry("localhost", 5), Map.entry("127.0.0.1", 200), Map.entry("::1", 7));
    }

    @Test
    void badValuesRefuseToStartNamingTheKey() {
        Map<String, String> bad = Map.ofEntries(
            Map.entry("max.connections=-1", "max.connections"),
            Map.entry("max.connections=many", "max.connections"),
            Map.entry("max.connections=99999999999", "max.connections"),
            Map.entry("max.connections.per.ip=-3", "max.connections.per.ip"),
            Map.entry("max.connections.per.ip=0", "max.connections.per.ip"),
            Map.entry("max.connections.per.ip.overrides=127.0.0.1", "max.connections.per.ip.overrides"),
            Map.entry("max.connections.per.ip.overrides=:5", "max.connections.per.ip.overrides"),
            Map.entry("max.connections.per.ip.overrides=127.0.0.1:-1", "max.connections.per.ip.overrides"),
            Map.entry("max.connections.per.ip.overrides=127.0.0.1:ten", "max.connections.per.ip.overrides"),
            Map.entry("max.connections.per.ip.overrides=127.0.0.1:5,,h:1", "max.connections.per.ip.overrides"),
            Map.entry("max.connections.per.ip.overrides=bad host!:5", "max.connections.per.ip.overrides"),
            Map.entry("listener.name.internal.max.connections=-2", "listener.name.internal.max.connections"),
            Map.entry("listener.name.internal.max.connections=x", "listener.name.internal.max.connections"),
            Map.entry("queued.max.requests=0", "queued.max.requests"),
            Map.entry("queued.max.requests=-5", "queued.max.requests"),
            Map.entry("queued.max.request.bytes=lots", "queued.max.request.bytes"),
            Map.entry("queued.max.request.bytes=1e9", "queued.max.request.bytes"));
        bad.forEach((setting, key) -> {
            String[] kv = setting.split("=", 2);
            assertThatThrownBy(() -> limits(Map.of(kv[0], kv[1]))).as(setting)
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("Invalid value for config '" + key + "'")
                .satisfies(e -> assertThat(((ConfigException) e).key()).isEqualTo(key));
        });
    }
}
