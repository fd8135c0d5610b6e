package io.kaas.broker.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Kafka's rules for a dynamic thread-count change: at least 1, at least half, at most double the current count. */
class DynamicThreadCountsTest {
    private static final BrokerConfig STATIC = BrokerConfig.of(Map.of("num.io.threads", "4", "log.cleaner.threads", "2"));

    @Test
    void numIoThreadsMayHalveOrDoubleAndNoMore() {
        assertThat(DynamicThreadCounts.problem(STATIC, Map.of(), Map.of("num.io.threads", "8"))).isNull();
        assertThat(DynamicThreadCounts.problem(STATIC, Map.of(), Map.of("num.io.threads", "2"))).isNull();
        assertThat(DynamicThreadCounts.problem(STATIC, Map.of(), Map.of("num.io.threads", "9"))).isEqualTo(
                "Invalid value org.apache.kafka.common.config.ConfigException: Dynamic thread count update validation "
                        + "failed for num.io.threads=9, value should not be greater than double the current value 4 for "
                        + "configuration Invalid dynamic configuration");
        assertThat(DynamicThreadCounts.problem(STATIC, Map.of(), Map.of("num.io.threads", "1"))).isEqualTo(
                DynamicThreadCounts.wrapped("Dynamic thread count update validation failed for num.io.threads=1, value "
                        + "should be at least half the current value 4"));
        // the current count is the effective one before the change, dynamic or static
        assertThat(DynamicThreadCounts.problem(STATIC, Map.of("num.io.threads", "8"), Map.of("num.io.threads", "16")))
                .isNull();
        assertThat(DynamicThreadCounts.problem(STATIC, Map.of("num.io.threads", "8"), Map.of())).as("back to 4").isNull();
        // Kafka's integer halving: 3 may go to 1
        assertThat(DynamicThreadCounts.threadPoolProblem("num.io.threads", 3, 1)).isNull();
        assertThat(DynamicThreadCounts.threadPoolProblem("num.io.threads", 3, 0)).endsWith("value should be at least 1");
    }

    @Test
    void logCleanerThreadsFollowTheCleanersOwnWords() {
        assertThat(DynamicThreadCounts.problem(STATIC, Map.of(), Map.of("log.cleaner.threads", "4"))).isNull();
        assertThat(DynamicThreadCounts.problem(STATIC, Map.of(), Map.of("log.cleaner.threads", "5")))
                .isEqualTo(DynamicThreadCounts.wrapped(
                        "Log cleaner threads cannot be increased to more than double the current value 2"));
        assertThat(DynamicThreadCounts.problem(STATIC, Map.of("log.cleaner.threads", "8"), Map.of("log.cleaner.threads", "3")))
                .isEqualTo(DynamicThreadCounts.wrapped(
                        "Log cleaner threads cannot be reduced to less than half the current value 8"));
        assertThat(DynamicThreadCounts.problem(STATIC, Map.of(), Map.of("log.cleaner.threads", "0")))
                .isEqualTo(DynamicThreadCounts.wrapped("Log cleaner threads should be at least 1"));
        // an unrelated change is not held to a count that does not change
        assertThat(DynamicThreadCounts.problem(BrokerConfig.of(Map.of("log.cleaner.threads", "0")), Map.of(),
                Map.of("log.retention.ms", "1000"))).isNull();
    }

    @Test
    void aListenersConnectionQuotaMustStayAboveZeroAsKafkasListenerQuotaChecksIt() {
        BrokerConfig config = BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0,INTERNAL://127.0.0.1:0",
                "listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,INTERNAL:PLAINTEXT",
                "inter.broker.listener.name", "INTERNAL"));
        assertThat(config.listenerConnectionCreationRates(Map.of("listener.name.internal.max.connection.creation.rate",
                "5"))).containsExactly(Map.entry("INTERNAL", 5));
        assertThat(ListenerQuotaChecks.problem(config, Map.of(),
                Map.of("listener.name.internal.max.connection.creation.rate", "5"))).isNull();
        assertThat(ListenerQuotaChecks.problem(config, Map.of(),
                Map.of("listener.name.internal.max.connection.creation.rate", "0")))
                .isEqualTo(DynamicThreadCounts.wrapped("Invalid max.connection.creation.rate 0"));
        assertThat(ListenerQuotaChecks.problem(config, Map.of(), Map.of("max.connection.creation.rate", "0")))
                .isEqualTo(DynamicThreadCounts.wrapped("Invalid max.connection.creation.rate 0"));
        assertThat(ListenerQuotaChecks.problem(config, Map.of(), Map.of("max.connections", "0")))
                .isEqualTo(DynamicThreadCounts.wrapped("Invalid max.connections 0"));
        assertThat(ListenerQuotaChecks.problem(config, Map.of(), Map.of("max.connections", "10"))).isNull();
        assertThat(ListenerQuotaChecks.problem(config, Map.of(), Map.of("log.retention.ms", "10"))).isNull();
        assertThat(ListenerQuotaChecks.problem(config, Map.of(), Map.of("max.connections.per.ip", "0")))
                .as("left to the broker applying it, as before").isNull();
    }
}
