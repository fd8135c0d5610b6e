package io.kaas.broker.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ConnectionOverridesTest {
    @Test
    void wellFormedOverridesPass() {
        assertThat(ConnectionOverrides.problem("")).isNull();
        assertThat(ConnectionOverrides.problem("127.0.0.1:200, localhost:100")).isNull();
        assertThat(ConnectionOverrides.problem("::1:5")).as("split at the last colon").isNull();
    }

    @Test
    void malformedOverridesGetKafkasMessages() {
        assertThat(ConnectionOverrides.problem("127.0.0.1:abc")).isEqualTo("For input string: \"abc\"");
        assertThat(ConnectionOverrides.problem("nocolon")).isEqualTo(
                "Error parsing configuration property 'max.connections.per.ip.overrides': begin 0, end -1, length 7");
        assertThat(ConnectionOverrides.problem("bad host!:3,ok:1"))
                .isEqualTo("max.connections.per.ip.overrides contains invalid addresses : bad host!");
    }

    @Test
    void kaasRefusesANegativeCountAndAnUnresolvableHostNamingThem() {
        assertThat(ConnectionOverrides.problem("127.0.0.1:-2")).isEqualTo("Invalid value 127.0.0.1:-2 for configuration "
                + "max.connections.per.ip.overrides: the count of 127.0.0.1 must be at least 0, got -2");
        assertThat(ConnectionOverrides.problem("no-such-host.invalid:2"))
                .endsWith("unknown host 'no-such-host.invalid'");
    }
}
