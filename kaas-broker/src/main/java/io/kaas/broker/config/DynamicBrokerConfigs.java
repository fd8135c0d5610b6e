package io.kaas.broker.config;

import io.kaas.security.tls.SslKeys;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The broker configs that can change at run time (Kafka's KIP-226 dynamic broker configs, kept in the cluster-state
 * store as the cluster default or per broker) and their validation, as Kafka's {@code DynamicBrokerConfig} checks them.
 * kaas accepts the keys of Kafka's dynamic list that it applies without a restart: the log defaults topics inherit.
 * Keys kaas does not know are stored as given, as Kafka does (plugins may read them).
 */
public final class DynamicBrokerConfigs {
    /** The dynamic keys kaas applies at run time, in Kafka's {@code DynamicLogConfig} list. */
    public static final Set<String> DYNAMIC = Set.of(BrokerConfigDef.LOG_SEGMENT_BYTES, BrokerConfigDef.LOG_ROLL_MS,
            BrokerConfigDef.LOG_ROLL_HOURS, BrokerConfigDef.LOG_RETENTION_MS, BrokerConfigDef.LOG_RETENTION_MINUTES,
            BrokerConfigDef.LOG_RETENTION_HOURS, BrokerConfigDef.LOG_RETENTION_BYTES,
            BrokerConfigDef.LOG_FLUSH_INTERVAL_MESSAGES, BrokerConfigDef.LOG_CLEANUP_POLICY,
            BrokerConfigDef.LOG_MESSAGE_TIMESTAMP_TYPE, BrokerConfigDef.MESSAGE_MAX_BYTES,
            BrokerConfigDef.LOG_CLEANER_DELETE_RETENTION_MS, BrokerConfigDef.LOG_CLEANER_MIN_CLEANABLE_RATIO,
            BrokerConfigDef.LOG_CLEANER_MIN_COMPACTION_LAG_MS, BrokerConfigDef.LOG_CLEANER_MAX_COMPACTION_LAG_MS,
            // Kafka's LogCleaner.ReconfigurableConfigs (the ones the engine's cleaner reads)
            BrokerConfigDef.LOG_CLEANER_THREADS, BrokerConfigDef.LOG_CLEANER_IO_MAX_BYTES_PER_SECOND,
            BrokerConfigDef.LOG_CLEANER_BACKOFF_MS,
            // Kafka's DynamicThreadPool.ReconfigurableConfigs (the one kaas has), and its acceptors' network threads
            BrokerConfigDef.NUM_IO_THREADS, BrokerConfigDef.NUM_NETWORK_THREADS,
            // Kafka's SocketServer.ReconfigurableConfigs
            BrokerConfigDef.MAX_CONNECTIONS, BrokerConfigDef.MAX_CONNECTIONS_PER_IP,
            BrokerConfigDef.MAX_CONNECTIONS_PER_IP_OVERRIDES, BrokerConfigDef.MAX_CONNECTION_CREATION_RATE);

    /** Kafka's synonyms of a broker key, in its order of precedence ({@code DynamicBrokerConfig.brokerConfigSynonyms}). */
    public static List<String> synonyms(String key) {
        return switch (key) {
            case BrokerConfigDef.LOG_ROLL_MS, BrokerConfigDef.LOG_ROLL_HOURS ->
                    List.of(BrokerConfigDef.LOG_ROLL_MS, BrokerConfigDef.LOG_ROLL_HOURS);
            case BrokerConfigDef.LOG_RETENTION_MS, BrokerConfigDef.LOG_RETENTION_MINUTES, BrokerConfigDef.LOG_RETENTION_HOURS ->
                    List.of(BrokerConfigDef.LOG_RETENTION_MS, BrokerConfigDef.LOG_RETENTION_MINUTES,
                            BrokerConfigDef.LOG_RETENTION_HOURS);
            default -> List.of(key);
        };
    }

    private DynamicBrokerConfigs() {
    }

    /**
     * Why {@code props} (the whole dynamic set of one broker or of the default, after the change) cannot be stored, in
     * Kafka's words, or null if it can.
     */
    public static String invalidReason(Map<String, String> props) {
        return invalidReason(props, true);
    }

    /**
     * As {@link #invalidReason(Map)}, for one broker's own set ({@code perBroker}) or the cluster default's: the
     * listener TLS keys are per broker only, as Kafka's {@code DynamicBrokerConfig.validateConfigs} has it.
     */
    public static String invalidReason(Map<String, String> props, boolean perBroker) {
        Set<String> readOnly = new TreeSet<>();
        Set<String> unprefixed = new TreeSet<>();
        Set<String> listenerTls = new TreeSet<>();
        for (String key : props.keySet()) {
            if (SslKeys.DYNAMIC.contains(key)) {
                unprefixed.add(key);
            } else if (BrokerConfigDef.KEYS.containsKey(key) && !DYNAMIC.contains(key)) {
                readOnly.add(key);
            } else if (isListenerTlsKey(key)) {
                listenerTls.add(key);
            }
        }
        if (!readOnly.isEmpty()) {
            return "Cannot update these configs dynamically: " + scalaSet(readOnly);
        }
        if (!unprefixed.isEmpty()) {
            return "These security configs can be dynamically updated only per-listener using the listener prefix: "
                    + scalaSet(unprefixed);
        }
        if (!perBroker && !listenerTls.isEmpty()) {
            return "Cannot update these configs at default cluster level, broker id must be specified: "
                    + scalaSet(listenerTls);
        }
        for (Map.Entry<String, String> e : new java.util.TreeMap<>(props).entrySet()) {
            ConfigKey key = BrokerConfigDef.KEYS.get(e.getKey());
            if (BrokerConfigDef.MAX_CONNECTIONS_PER_IP_OVERRIDES.equals(e.getKey())) {
                String problem = ConnectionOverrides.problem(e.getValue());
                if (problem != null) {
                    return problem;
                }
            } else if (key != null) {
                String problem = valueProblem(key, e.getValue());
                if (problem != null) {
                    return "Invalid value " + e.getValue() + " for configuration " + e.getKey() + ": " + problem;
                }
            } else if (isListenerRateKey(e.getKey())) {
                // as Kafka's validateConfigTypes: a listener's key is checked as its base key, and named so
                String problem = valueProblem(BrokerConfigDef.KEYS.get(BrokerConfigDef.MAX_CONNECTION_CREATION_RATE),
                        e.getValue());
                if (problem != null) {
                    return "Invalid value " + e.getValue() + " for configuration "
                            + BrokerConfigDef.MAX_CONNECTION_CREATION_RATE + ": " + problem;
                }
            }
        }
        return null;
    }

    /** The default of a broker config key (what APPEND and SUBTRACT start from when none is stored), or null. */
    public static String defaultValue(String key) {
        ConfigKey k = BrokerConfigDef.KEYS.get(key);
        return k == null ? null : k.defaultValue();
    }

    /** Kafka's {@code ConfigDef} words for a value the key cannot take, or null. */
    private static String valueProblem(ConfigKey key, String raw) {
        String v = raw == null ? "" : raw.trim();
        if (key.name().equals(BrokerConfigDef.LOG_CLEANUP_POLICY)) {
            return cleanupPolicyProblem(v);
        }
        switch (key.type()) {
            case BOOLEAN:
                return v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false") ? null
                        : "Expected value to be either true or false";
            case INT:
            case SHORT:
            case LONG: {
                long n;
                try {
                    n = Long.parseLong(v);
                } catch (NumberFormatException e) {
                    return "Not a number of type " + key.type().name();
                }
                long lo = key.type() == ConfigType.INT ? Integer.MIN_VALUE : key.type() == ConfigType.SHORT ? Short.MIN_VALUE : Long.MIN_VALUE;
                long hi = key.type() == ConfigType.INT ? Integer.MAX_VALUE : key.type() == ConfigType.SHORT ? Short.MAX_VALUE : Long.MAX_VALUE;
                if (n < lo || n > hi) {
                    return "Not a number of type " + key.type().name();
                }
                return key.min() != null && n < key.min() ? "Value must be at least " + key.min() : null;
            }
            case DOUBLE: {
                double d;
                try {
                    d = Double.parseDouble(v);
                } catch (NumberFormatException e) {
                    return "Not a number of type DOUBLE";
                }
                if (key.name().equals(BrokerConfigDef.LOG_CLEANER_MIN_CLEANABLE_RATIO)) {
                    return d < 0 ? "Value must be no less than 0" : d > 1 ? "Value must be no more than 1" : null;
                }
                if (key.name().equals(BrokerConfigDef.LOG_CLEANER_IO_MAX_BYTES_PER_SECOND)) {
                    // Kafka takes any number; 0 or less would stop its cleaner (or throttle nothing): kaas refuses it
                    return d > 0 ? null : "Value must be greater than 0";
                }
                return null;
            }
            default:
                try {
                    key.parse(raw);
                    return null;
                } catch (ConfigException e) {
                    return e.getMessage();
                }
        }
    }

    /**
     * Whether a log line may show {@code key}'s values: a key kaas knows that holds no secret (a key it does not
     * know is stored as given and might).
     */
    public static boolean valueShown(String key) {
        return (BrokerConfigDef.KEYS.containsKey(key) && !BrokerConfigDef.isSensitive(key)) || isListenerRateKey(key);
    }

    /**
     * Whether {@code key} is a listener's {@code listener.name.<l>.max.connection.creation.rate} (KIP-612; dynamic, at
     * the cluster default too, as Kafka's cluster-level listener configs).
     */
    public static boolean isListenerRateKey(String key) {
        String prefix = "listener.name.";
        String suffix = "." + BrokerConfigDef.MAX_CONNECTION_CREATION_RATE;
        return key.startsWith(prefix) && key.endsWith(suffix) && key.length() > prefix.length() + suffix.length()
                && key.indexOf('.', prefix.length()) == key.length() - suffix.length();
    }

    /**
     * Each element delete or compact, as Kafka's ValidList. An empty list (Kafka 4.4: neither deletes nor compacts)
     * is refused: kaas's log defaults need one policy, and a stored value the broker cannot run with would break every
     * later DescribeConfigs and topic default.
     */
    private static String cleanupPolicyProblem(String v) {
        return CleanupPolicies.problem(BrokerConfigDef.LOG_CLEANUP_POLICY, v);
    }

    /** The effective dynamic values of one broker: its own over the cluster default's. */
    public static Map<String, String> merged(Map<String, String> clusterDefault, Map<String, String> perBroker) {
        Map<String, String> out = new LinkedHashMap<>(clusterDefault);
        out.putAll(perBroker);
        return out;
    }

    /** Whether {@code key} (or the key a {@code listener.name.<l>.} override stands for) holds a secret. */
    public static boolean isSensitive(String key) {
        return BrokerConfigDef.isSensitive(key);
    }

    /** Whether {@code key} is a listener's dynamic TLS key: {@code listener.name.<l>.} and one of {@link SslKeys#DYNAMIC}. */
    public static boolean isListenerTlsKey(String key) {
        String prefix = "listener.name.";
        int dot = key.startsWith(prefix) ? key.indexOf('.', prefix.length()) : -1;
        return dot > prefix.length() && SslKeys.DYNAMIC.contains(key.substring(dot + 1));
    }

    private static String scalaSet(Set<String> names) {
        return names.stream().collect(Collectors.joining(", ", "Set(", ")"));
    }
}
