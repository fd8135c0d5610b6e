package io.kaas.broker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AdminListenerTest {

    @Test
    void defaultsToLoopback9644AndNoneTurnsItOff() {
        assertThat(BrokerConfig.of(Map.of()).adminListener()).contains(new AdminListener("127.0.0.1", 9644));
        assertThat(BrokerConfig.of(Map.of("admin.listener", "none")).adminListener()).isEmpty();
        assertThat(AdminListener.parse("NONE")).isEmpty();
    }

    @Test
    void parsesHostsPortsAndIpv6Literals() {
        assertThat(AdminListener.parse("http://0.0.0.0:0")).contains(new AdminListener("0.0.0.0", 0));
        assertThat(AdminListener.parse("http://[::1]:9000/")).contains(new AdminListener("::1", 9000));
        assertThat(AdminListener.parse(" HTTP://localhost:65535 ")).contains(new AdminListener("localhost", 65535));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "9644", "127.0.0.1:9644", "https://127.0.0.1:9644", "http://127.0.0.1",
        "http://:9644", "http://127.0.0.1:x", "http://127.0.0.1:65536", "http://127.0.0.1:-1", "http://a b:1"})
    void refusesAnythingElseWithOneLineNamingTheKeyAndTheValue(String value) {
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("admin.listener", value)).adminListener())
            .isInstanceOf(ConfigException.class)
            .hasMessageStartingWith("Invalid value for config 'admin.listener': '" + value.trim() + "'")
            .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
}
