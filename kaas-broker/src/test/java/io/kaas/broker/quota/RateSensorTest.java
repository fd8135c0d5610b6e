package io.kaas.broker.quota;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RateSensorTest {

    @Test
    void aFreshSensorCountsAtLeastTenWindowsSoABurstUpToTenSecondsOfQuotaPasses() {
        RateSensor sensor = new RateSensor(11, 1000, 0);
        assertThat(sensor.recordAndThrottleMs(9_000, 1000, 0)).isZero();
        assertThat(sensor.rate(0)).isEqualTo(900.0);
    }

    @Test
    void throttleTimeIsKafkasOverTheBoundShareOfTheWindow() {
        RateSensor sensor = new RateSensor(11, 1000, 0);
        // 20 000 over a 10 s window is 2000/s against 1000/s: (2000 - 1000) / 1000 * 10 000 ms.
        assertThat(sensor.recordAndThrottleMs(20_000, 1000, 0)).isEqualTo(10_000);
        // 500 ms later the window is 10.5 s: 20 000 / 10.5 = 1904.76/s -> 0.90476 * 10 500 = 9500 ms.
        assertThat(sensor.recordAndThrottleMs(0, 1000, 500)).isEqualTo(9_500);
    }

    @Test
    void samplesOlderThanTheWholeWindowAreForgotten() {
        RateSensor sensor = new RateSensor(11, 1000, 0);
        sensor.recordAndThrottleMs(50_000, 1000, 0);
        assertThat(sensor.rate(5_000)).isGreaterThan(1000);
        assertThat(sensor.recordAndThrottleMs(100, 1000, 11_000)).isZero();
        assertThat(sensor.rate(11_000)).isEqualTo(10.0);
    }
}
