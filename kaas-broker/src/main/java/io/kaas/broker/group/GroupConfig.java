package io.kaas.broker.group;

import io.kaas.broker.config.BrokerConfig;
import io.kaas.broker.config.ConfigException;
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
 */
public record GroupConfig(int minSessionTimeoutMs, int maxSessionTimeoutMs, int initialRebalanceDelayMs, int maxSize,
                          long offsetsRetentionMs, long offsetsRetentionCheckIntervalMs, int offsetMetadataMaxBytes) {

    /** How long a new member's JoinGroup may wait before the member is dropped (Kafka's constant). */
    public static final int NEW_MEMBER_JOIN_TIMEOUT_MS = 5 * 60 * 1000;

    public static GroupConfig defaults() {
        return new GroupConfig(6000, 1_800_000, 3000, Integer.MAX_VALUE, TimeUnit.DAYS.toMillis(7), 600_000, 4096);
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
                intValue(config, "offset.metadata.max.bytes", d.offsetMetadataMaxBytes, 0));
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
