package io.kaas.broker.config;

import java.util.Map;

/**
 * Kafka's checks of a dynamic thread-count change against the count the broker runs with: a new count at least 1, at
 * least half and at most double the current one ({@code DynamicThreadPool.validateReconfiguration} for
 * {@code num.io.threads}, the acceptor's {@code validateReconfiguration} for {@code num.network.threads} (the same
 * words), {@code LogCleaner.validateReconfiguration} for {@code log.cleaner.threads}), in Kafka's
 * words, which the broker answers with INVALID_REQUEST as Kafka does. Kafka 4.4 runs these checks inside its
 * reconfiguration pass, which wraps what they throw as {@code new ConfigException("Invalid dynamic configuration",
 * cause)}: the client reads {@code Invalid value org.apache.kafka.common.config.ConfigException: <the check's words> for
 * configuration Invalid dynamic configuration}, and so it does from kaas.
 */
public final class DynamicThreadCounts {
    private DynamicThreadCounts() {
    }

    /**
     * Why this broker cannot go from its effective dynamic broker configs {@code before} to {@code after} (each its own
     * over the cluster default, already validated by type) under its static {@code config}, or null if it can.
     */
    public static String problem(BrokerConfig config, Map<String, String> before, Map<String, String> after) {
        String problem = threadPoolProblem(BrokerConfigDef.NUM_IO_THREADS, config.numIoThreads(before),
                config.numIoThreads(after));
        if (problem == null) {
            problem = threadPoolProblem(BrokerConfigDef.NUM_NETWORK_THREADS, config.numNetworkThreads(before),
                    config.numNetworkThreads(after));
        }
        if (problem == null) {
            problem = cleanerProblem(config.logCleanerThreads(before), config.logCleanerThreads(after));
        }
        return problem == null ? null : wrapped(problem);
    }

    /** The text of Kafka's {@code new ConfigException("Invalid dynamic configuration", new ConfigException(problem))}. */
    static String wrapped(String problem) {
        return "Invalid value org.apache.kafka.common.config.ConfigException: " + problem
                + " for configuration Invalid dynamic configuration";
    }

    /** {@code DynamicThreadPool.validateReconfiguration}'s words for {@code key} going from {@code current} to {@code next}. */
    static String threadPoolProblem(String key, int current, int next) {
        if (next == current) {
            return null;
        }
        String failed = "Dynamic thread count update validation failed for " + key + "=" + next;
        if (next <= 0) {
            return failed + ", value should be at least 1";
        }
        if (next < current / 2) {
            return failed + ", value should be at least half the current value " + current;
        }
        if (next > current * 2L) {
            return failed + ", value should not be greater than double the current value " + current;
        }
        return null;
    }

    /** {@code LogCleaner.validateReconfiguration}'s words for {@code log.cleaner.threads}, asked when it changes. */
    static String cleanerProblem(int current, int next) {
        if (next == current) {
            return null;
        }
        if (next < 1) {
            return "Log cleaner threads should be at least 1";
        }
        if (next < current / 2) {
            return "Log cleaner threads cannot be reduced to less than half the current value " + current;
        }
        if (next > current * 2L) {
            return "Log cleaner threads cannot be increased to more than double the current value " + current;
        }
        return null;
    }
}
