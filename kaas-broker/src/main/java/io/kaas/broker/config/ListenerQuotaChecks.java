package io.kaas.broker.config;

import java.util.Map;

/**
 * Kafka's check of each listener's connection quota when a dynamic change moves it ({@code
 * ConnectionQuotas.ListenerConnectionQuota.validateReconfiguration}): the listener's {@code max.connections} and
 * {@code max.connection.creation.rate} (its {@code listener.name.<l>.} value, else the broker-wide one) must be above
 * 0. Kafka runs it in its reconfiguration pass, so the client reads it wrapped as the thread-count checks
 * ({@link DynamicThreadCounts#wrapped}): {@code ... ConfigException: Invalid max.connection.creation.rate 0 for
 * configuration Invalid dynamic configuration}. kaas's {@code listener.name.<l>.max.connections} is static, so only the
 * broker-wide {@code max.connections} moves it at run time.
 */
public final class ListenerQuotaChecks {
    private ListenerQuotaChecks() {
    }

    /**
     * Why this broker cannot go from its effective dynamic broker configs {@code before} to {@code after} (each its own
     * over the cluster default, already validated by type) under its static {@code config}, or null if it can.
     */
    public static String problem(BrokerConfig config, Map<String, String> before, Map<String, String> after) {
        ConnectionLimitsConfig limitsBefore;
        ConnectionLimitsConfig limitsAfter;
        try {
            limitsBefore = config.connectionLimits(before);
            limitsAfter = config.connectionLimits(after);
        } catch (ConfigException e) {
            // e.g. max.connections.per.ip=0 against the static overrides: not checked when stored (the broker logs
            // that it cannot apply it and keeps its limits), so not here either
            return null;
        }
        Map<String, Integer> ratesBefore = config.listenerConnectionCreationRates(before);
        Map<String, Integer> ratesAfter = config.listenerConnectionCreationRates(after);
        int brokerRateBefore = config.maxConnectionCreationRate(before);
        int brokerRateAfter = config.maxConnectionCreationRate(after);
        for (ListenerConfig l : config.listenerConfigs()) {
            String name = l.bind().name();
            // the listener's own max.connections, else the broker-wide one (Kafka's listener view of the configs)
            int maxBefore = limitsBefore.maxConnections(name);
            int maxAfter = limitsAfter.maxConnections(name);
            int rateBefore = ratesBefore.getOrDefault(name, brokerRateBefore);
            int rateAfter = ratesAfter.getOrDefault(name, brokerRateAfter);
            if (maxAfter == maxBefore && rateAfter == rateBefore) {
                continue;
            }
            if (maxAfter <= 0) {
                return DynamicThreadCounts.wrapped("Invalid max.connections " + maxAfter);
            }
            if (rateAfter <= 0) {
                return DynamicThreadCounts.wrapped("Invalid max.connection.creation.rate " + rateAfter);
            }
        }
        return null;
    }
}
