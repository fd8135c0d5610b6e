package io.kaas.broker.group;

import io.kaas.broker.config.BrokerConfig;
import io.kaas.broker.config.ConfigException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The coordinator's settings, with Kafka's names and defaults.
 *
 * @param minSessionTimeoutMs          {@code group.min.session.timeout.ms} (6000)
 * @param maxSessionTimeoutMs          {@code group.max.session.timeout.ms} (1800000)
 * @param initialRebalanceDelayMs      {@code group.initial.rebalance.delay.ms} (3000)
 * @param maxSize                      {@code group.max.size} (unlimited)
 * @param offsetsRetentionMs           {@code offsets.retention.minutes} (7 days), in ms
 * @param offsetsRetentionCheckIntervalMs {@code offsets.retention.check.interval.ms} (600000)
 * @param offsetMetadataMaxBytes       {@code offset.metadata.max.bytes} (4096)
 * @param consumerSessionTimeoutMs    {@code group.consumer.session.timeout.ms} (45000), KIP-848 groups
 * @param consumerHeartbeatIntervalMs {@code group.consumer.heartbeat.interval.ms} (5000), KIP-848 groups
 * @param consumerMaxSize             {@code group.consumer.max.size} (unlimited), KIP-848 groups
 * @param consumerAssignors           {@code group.consumer.assignors} ({@code uniform,range}): the server-side
 *                                    assignors by name; the first is the default
 */
public record GroupConfig(int minSessionTimeoutMs, int maxSessionTimeoutMs, int initialRebalanceDelayMs, int maxSize,
                          long offsetsRetentionMs, long offsetsRetentionCheckIntervalMs, int offsetMetadataMaxBytes,
                          int consumerSessionTimeoutMs, int consumerHeartbeatIntervalMs, int consumerMaxSize,
                          List<String> consumerAssignors) {

    public GroupConfig {
        consumerAssignors = List.copyOf(consumerAssignors);
        if (consumerAssignors.isEmpty()) {
            throw new ConfigException("group.consumer.assignors", "at least one assignor is needed");
        }
        if (consumerHeartbeatIntervalMs >= consumerSessionTimeoutMs) {
            throw new ConfigException("group.consumer.heartbeat.interval.ms",
                    "must be lower than group.consumer.session.timeout.ms (" + consumerSessionTimeoutMs + ")");
        }
    }

    /** The classic settings, with the KIP-848 ones at their defaults. */
    public GroupConfig(int minSessionTimeoutMs, int maxSessionTimeoutMs, int initialRebalanceDelayMs, int maxSize,
                       long offsetsRetentionMs, long offsetsRetentionCheckIntervalMs, int offsetMetadataMaxBytes) {
        this(minSessionTimeoutMs, maxSessionTimeoutMs, initialRebalanceDelayMs, maxSize, offsetsRetentionMs,
                offsetsRetentionCheckIntervalMs, offsetMetadataMaxBytes, 45_000, 5_000, Integer.MAX_VALUE,
                ConsumerAssignors.NAMES);
    }

    /** A copy with other KIP-848 session and heartbeat settings. */
    public GroupConfig withConsumerTimeouts(int sessionTimeoutMs, int heartbeatIntervalMs) {
        return new GroupConfig(minSessionTimeoutMs, maxSessionTimeoutMs, initialRebalanceDelayMs, maxSize, offsetsRetentionMs,
                offsetsRetentionCheckIntervalMs, offsetMetadataMaxBytes, sessionTimeoutMs, heartbeatIntervalMs,
                consumerMaxSize, consumerAssignors);
    }

    /** A copy with another {@code group.consumer.max.size}. */
    public GroupConfig withConsumerMaxSize(int size) {
        return new GroupConfig(minSessionTimeoutMs, maxSessionTimeoutMs, initialRebalanceDelayMs, maxSize, offsetsRetentionMs,
                offsetsRetentionCheckIntervalMs, offsetMetadataMaxBytes, consumerSessionTimeoutMs, consumerHeartbeatIntervalMs,
                size, consumerAssignors);
    }

    /** A copy with other {@code group.consumer.assignors}. */
    public GroupConfig withConsumerAssignors(List<String> assignors) {
        return new GroupConfig(minSessionTimeoutMs, maxSessionTimeoutMs, initialRebalanceDelayMs, maxSize, offsetsRetentionMs,
                offsetsRetentionCheckIntervalMs, offsetMetadataMaxBytes, consumerSessionTimeoutMs, consumerHeartbeatIntervalMs,
                consumerMaxSize, assignors);
    }

    /** How long a new member's JoinGroup may wait before the member is dropped (Kafka's constant). */
    public static final int NEW_MEMBER_JOIN_TIMEOUT_MS = 5 * 60 * 1000;

    public static GroupConfig defaults() {
        return new GroupConfig(6000, 1_800_000, 3000, Integer.MAX_VALUE, TimeUnit.DAYS.toMillis(7), 600_000, 4096);
        // KIP-848 settings: see the seven-argument constructor.
    }

    /**
     * Reads the {@code group.*} and {@code offsets.*} keys from the broker config.
     *
     * @throws ConfigException naming the key if a value is not a number in range
     */
    public static GroupConfig from(BrokerConfig config) {
        GroupConfig d = defaults();
        return new GroupConfig(
                intValue(config, "group.min.session.timeout.ms", d.minSessionTimeoutMs, 0),
                intValue(config, "group.max.session.timeout.ms", d.maxSessionTimeoutMs, 0),
                intValue(config, "group.initial.rebalance.delay.ms", d.initialRebalanceDelayMs, 0),
                intValue(config, "group.max.size", d.maxSize, 1),
                TimeUnit.MINUTES.toMillis(intValue(config, "offsets.retention.minutes",
                        (int) TimeUnit.MILLISECONDS.toMinutes(d.offsetsRetentionMs), 1)),
                longValue(config, "offsets.retention.check.interval.ms", d.offsetsRetentionCheckIntervalMs, 1),
                intValue(config, "offset.metadata.max.bytes", d.offsetMetadataMaxBytes, 0),
                intValue(config, "group.consumer.session.timeout.ms", d.consumerSessionTimeoutMs, 1),
                intValue(config, "group.consumer.heartbeat.interval.ms", d.consumerHeartbeatIntervalMs, 1),
                intValue(config, "group.consumer.max.size", d.consumerMaxSize, 1),
                assignors(config));
    }

    /** {@code group.consumer.assignors}: short names, or Kafka's class names of the two built-in assignors. */
    private static List<String> assignors(BrokerConfig config) {
        String raw = config.originalValue("group.consumer.assignors");
        if (raw == null || raw.isBlank()) {
            return ConsumerAssignors.NAMES;
        }
        List<String> out = new ArrayList<>();
        for (String part : raw.split(",")) {
            String name = part.trim();
            if (name.isEmpty()) {
                continue;
            }
            String shortName = ConsumerAssignors.shortName(name);
            if (shortName == null) {
                throw new ConfigException("group.consumer.assignors", "unknown assignor '" + name
                        + "'; known assignors: " + String.join(", ", ConsumerAssignors.NAMES));
            }
            if (!out.contains(shortName)) {
                out.add(shortName);
            }
        }
        if (out.isEmpty()) {
            throw new ConfigException("group.consumer.assignors", "at least one assignor is needed");
        }
        return out;
    }

    private static int intValue(BrokerConfig config, String key, int dflt, int min) {
        long v = longValue(config, key, dflt, min);
        if (v > Integer.MAX_VALUE) {
            throw new ConfigException(key, v + " is not an int");
        }
        return (int) v;
    }

    private static long longValue(BrokerConfig config, String key, long dflt, long min) {
        String raw = config.originalValue(key);
        if (raw == null || raw.isBlank()) {
            return dflt;
        }
        long v;
        try {
            v = Long.parseLong(raw.trim());
        } catch (NumberFormatException e) {
            throw new ConfigException(key, "'" + raw + "' is not a number");
        }
        if (v < min) {
            throw new ConfigException(key, raw + " is below the minimum " + min);
        }
        return v;
    }
}
