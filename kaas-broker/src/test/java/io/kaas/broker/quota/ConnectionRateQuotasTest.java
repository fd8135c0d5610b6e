package io.kaas.broker.quota;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConnectionRateQuotasTest {
    private static final long T0 = 1_000_000;

    @Test
    void anAddressOverItsRateIsThrottledAtMostOneWindowAndNotCounted() throws Exception {
        // two windows of one second: a rate is measured over at least one second
        ConnectionRateQuotas rates = new ConnectionRateQuotas(2, 1000, Integer.MAX_VALUE, T0);
        InetAddress a = InetAddress.getByName("10.0.0.7");
        rates.update(Map.of(Map.of("ip", "10.0.0.7"), Map.of("connection_creation_rate", 2.0)));
        assertThat(rates.ipQuota(a)).isEqualTo(2);
        assertThat(rates.ipThrottleMs(a, T0)).isZero();
        assertThat(rates.ipThrottleMs(a, T0)).isZero();
        // 3 in one second against 2/s: (3 - 2) / 2 x 1 s
        assertThat(rates.ipThrottleMs(a, T0)).isEqualTo(500);
        assertThat(rates.ipThrottleMs(a, T0)).as("the refused one was not counted").isEqualTo(500);
        assertThat(rates.ipThrottleMs(InetAddress.getByName("10.0.0.8"), T0)).as("no quota there").isZero();
    }

    @Test
    void theDefaultIpEntityAppliesToEveryAddressWithoutItsOwnAndTheBrokerRateDelays() throws Exception {
        ConnectionRateQuotas rates = new ConnectionRateQuotas(2, 1000, 1, T0);
        rates.update(Map.of(Map.of("ip", QuotaStore.DEFAULT_NAME), Map.of("connection_creation_rate", 5.0),
                Map.of("ip", "10.0.0.9"), Map.of("connection_creation_rate", 50.0)));
        assertThat(rates.ipQuota(InetAddress.getByName("10.1.2.3"))).isEqualTo(5);
        assertThat(rates.ipQuota(InetAddress.getByName("10.0.0.9"))).isEqualTo(50);
        assertThat(rates.acceptDelayMs(T0)).isZero();
        assertThat(rates.acceptDelayMs(T0)).isEqualTo(1000);
        assertThat(rates.acceptDelayMs(T0)).as("bounded by one window").isEqualTo(1000);
        rates.brokerRate(Integer.MAX_VALUE);
        assertThat(rates.acceptDelayMs(T0)).isZero();
        rates.update(Map.of());
        assertThat(rates.ipQuota(InetAddress.getByName("10.1.2.3"))).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void aListenersOwnRateDelaysItsConnectionsOnlyAndTheLongerDelayWins() throws Exception {
        ConnectionRateQuotas rates = new ConnectionRateQuotas(2, 1000, Integer.MAX_VALUE, T0);
        rates.listenerRates(Map.of("EXTERNAL", 1));
        assertThat(rates.acceptDelayMs("EXTERNAL", T0)).isZero();
        assertThat(rates.acceptDelayMs("EXTERNAL", T0)).as("over 1/s").isEqualTo(1000);
        assertThat(rates.acceptDelayMs("INTERNAL", T0)).as("another listener has none").isZero();
        // a connection its address's quota refuses is not counted on its listener
        rates.update(Map.of(Map.of("ip", "10.0.0.7"), Map.of("connection_creation_rate", 1.0)));
        InetAddress a = InetAddress.getByName("10.0.0.7");
        assertThat(rates.ipThrottleMs("INTERNAL", a, T0)).isZero();
        assertThat(rates.ipThrottleMs("INTERNAL", a, T0)).isPositive();
        rates.listenerRates(Map.of("EXTERNAL", 1, "INTERNAL", 100));
        rates.brokerRate(1);
        rates.acceptDelayMs(T0);
        assertThat(rates.acceptDelayMs("INTERNAL", T0)).as("the broker-wide delay is the longer").isEqualTo(1000);
        rates.listenerRates(Map.of());
        rates.brokerRate(Integer.MAX_VALUE);
        assertThat(rates.acceptDelayMs("EXTERNAL", T0)).as("removed").isZero();
    }

    @Test
    void theInterBrokerListenerIsHeldToItsOwnRateOnlyAsKafkasProtectedListener() {
        ConnectionRateQuotas rates = new ConnectionRateQuotas(2, 1000, 1, T0);
        rates.protectListener("INTERNAL");
        assertThat(rates.acceptDelayMs("PLAINTEXT", T0)).isZero();
        assertThat(rates.acceptDelayMs("PLAINTEXT", T0)).as("over the broker-wide 1/s").isEqualTo(1000);
        assertThat(rates.acceptDelayMs("INTERNAL", T0)).as("not held to the broker-wide rate").isZero();
        assertThat(rates.acceptDelayMs("INTERNAL", T0)).isZero();
        rates.listenerRates(Map.of("INTERNAL", 1));
        rates.acceptDelayMs("INTERNAL", T0);
        assertThat(rates.acceptDelayMs("INTERNAL", T0)).as("its own rate").isEqualTo(1000);
    }
}
