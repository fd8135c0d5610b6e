package io.kaas.coordinator.group;

import io.kaas.coordinator.group.assignor.ConsumerAssignors;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The group coordinator's settings, with Kafka's names and defaults, as typed values: the broker parses
 * and validates its {@code group.*} / {@code offsets.*} keys once, with its other config keys, and builds
 * this record from them; the coordinator never reads a config key itself.
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
 * @param consumerBounds              the bounds of a group's own {@code consumer.session.timeout.ms},
 *                                    {@code consumer.heartbeat.interval.ms} and {@code consumer.assignment.interval.ms}
 *                                    (group configs)
 * @param consumerAssignmentIntervalMs {@code group.consumer.assignment.interval.ms} (1000): the least time between
 *                                    two target assignments of a KIP-848 group; 0 computes one at every change
 * @param consumerRegexRefreshIntervalMs {@code group.consumer.regex.refresh.interval.ms} (600000): how long the
 *                                    topics a group's regular expressions match stand before they are resolved again
 */
public record GroupCoordinatorConfig(int minSessionTimeoutMs, int maxSessionTimeoutMs, int initialRebalanceDelayMs,
                                     int maxSize, long offsetsRetentionMs, long offsetsRetentionCheckIntervalMs,
                                     int offsetMetadataMaxBytes, int consumerSessionTimeoutMs,
                                     int consumerHeartbeatIntervalMs, int consumerMaxSize, List<String> consumerAssignors,
                                     ConsumerBounds consumerBounds, int consumerAssignmentIntervalMs,
                                     int consumerRegexRefreshIntervalMs) {

    /** Kafka's {@code group.consumer.assignment.interval.ms} default. */
    public static final int DEFAULT_CONSUMER_ASSIGNMENT_INTERVAL_MS = 1000;
    /** Kafka's {@code group.consumer.regex.refresh.interval.ms} default. */
    public static final int DEFAULT_CONSUMER_REGEX_REFRESH_INTERVAL_MS = 600_000;

    /**
     * Kafka's {@code group.consumer.min.session.timeout.ms} (45000), {@code group.consumer.max.session.timeout.ms}
     * (60000), {@code group.consumer.min.heartbeat.interval.ms} (5000) and
     * {@code group.consumer.max.heartbeat.interval.ms} (15000), {@code group.consumer.min.assignment.interval.ms} (0)
     * and {@code group.consumer.max.assignment.interval.ms} (15000): what a group config may set.
     */
    public record ConsumerBounds(int minSessionTimeoutMs, int maxSessionTimeoutMs, int minHeartbeatIntervalMs,
                                 int maxHeartbeatIntervalMs, int minAssignmentIntervalMs, int maxAssignmentIntervalMs) {
        public static final ConsumerBounds DEFAULT = new ConsumerBounds(45_000, 60_000, 5_000, 15_000);

        /** With Kafka's default assignment interval bounds (0 and 15000). */
        public ConsumerBounds(int minSessionTimeoutMs, int maxSessionTimeoutMs, int minHeartbeatIntervalMs,
                              int maxHeartbeatIntervalMs) {
            this(minSessionTimeoutMs, maxSessionTimeoutMs, minHeartbeatIntervalMs, maxHeartbeatIntervalMs, 0, 15_000);
        }
    }

    /**
     * @throws IllegalArgumentException if no assignor is given, one is not a short name of
     *                                  {@link #assignorNames()}, or the heartbeat interval is not below the
     *                                  session timeout
     */
    public GroupCoordinatorConfig {
        consumerAssignors = List.copyOf(consumerAssignors);
        java.util.Objects.requireNonNull(consumerBounds, "consumerBounds");
        if (consumerAssignors.isEmpty()) {
            throw new IllegalArgumentException("group.consumer.assignors: at least one assignor is needed");
        }
        for (String name : consumerAssignors) {
            if (!ConsumerAssignors.NAMES.contains(name)) {
                throw new IllegalArgumentException("group.consumer.assignors: unknown assignor '" + name + "'");
            }
        }
        if (consumerHeartbeatIntervalMs >= consumerSessionTimeoutMs) {
            throw new IllegalArgumentException("group.consumer.heartbeat.interval.ms must be lower than "
                    + "group.consumer.session.timeout.ms (" + consumerSessionTimeoutMs + ")");
        }
        if (consumerAssignmentIntervalMs < 0) {
            throw new IllegalArgumentException("group.consumer.assignment.interval.ms must not be negative");
        }
        if (consumerRegexRefreshIntervalMs < 1) {
            throw new IllegalArgumentException("group.consumer.regex.refresh.interval.ms must be at least 1");
        }
    }

    /** With Kafka's default assignment interval and regex refresh interval. */
    public GroupCoordinatorConfig(int minSessionTimeoutMs, int maxSessionTimeoutMs, int initialRebalanceDelayMs, int maxSize,
                                  long offsetsRetentionMs, long offsetsRetentionCheckIntervalMs, int offsetMetadataMaxBytes,
                                  int consumerSessionTimeoutMs, int consumerHeartbeatIntervalMs, int consumerMaxSize,
                                  List<String> consumerAssignors, ConsumerBounds consumerBounds) {
        this(minSessionTimeoutMs, maxSessionTimeoutMs, initialRebalanceDelayMs, maxSize, offsetsRetentionMs,
                offsetsRetentionCheckIntervalMs, offsetMetadataMaxBytes, consumerSessionTimeoutMs, consumerHeartbeatIntervalMs,
                consumerMaxSize, consumerAssignors, consumerBounds, DEFAULT_CONSUMER_ASSIGNMENT_INTERVAL_MS,
                DEFAULT_CONSUMER_REGEX_REFRESH_INTERVAL_MS);
    }

    /** With Kafka's default {@link ConsumerBounds}. */
    public GroupCoordinatorConfig(int minSessionTimeoutMs, int maxSessionTimeoutMs, int initialRebalanceDelayMs, int maxSize,
                                  long offsetsRetentionMs, long offsetsRetentionCheckIntervalMs, int offsetMetadataMaxBytes,
                                  int consumerSessionTimeoutMs, int consumerHeartbeatIntervalMs, int consumerMaxSize,
                                  List<String> consumerAssignors) {
        this(minSessionTimeoutMs, maxSessionTimeoutMs, initialRebalanceDelayMs, maxSize, offsetsRetentionMs,
                offsetsRetentionCheckIntervalMs, offsetMetadataMaxBytes, consumerSessionTimeoutMs, consumerHeartbeatIntervalMs,
                consumerMaxSize, consumerAssignors, ConsumerBounds.DEFAULT);
    }

    /** The classic settings, with the KIP-848 ones at their defaults. */
    public GroupCoordinatorConfig(int minSessionTimeoutMs, int maxSessionTimeoutMs, int initialRebalanceDelayMs, int maxSize,
                                  long offsetsRetentionMs, long offsetsRetentionCheckIntervalMs, int offsetMetadataMaxBytes) {
        this(minSessionTimeoutMs, maxSessionTimeoutMs, initialRebalanceDelayMs, maxSize, offsetsRetentionMs,
                offsetsRetentionCheckIntervalMs, offsetMetadataMaxBytes, 45_000, 5_000, Integer.MAX_VALUE,
                ConsumerAssignors.NAMES);
    }

    /** A copy with another {@code group.consumer.max.size}. */
    public GroupCoordinatorConfig withConsumerMaxSize(int size) {
        return new GroupCoordinatorConfig(minSessionTimeoutMs, maxSessionTimeoutMs, initialRebalanceDelayMs, maxSize,
                offsetsRetentionMs, offsetsRetentionCheckIntervalMs, offsetMetadataMaxBytes, consumerSessionTimeoutMs,
                consumerHeartbeatIntervalMs, size, consumerAssignors, consumerBounds, consumerAssignmentIntervalMs,
                consumerRegexRefreshIntervalMs);
    }

    /** A copy with another {@code group.consumer.assignment.interval.ms}. */
    public GroupCoordinatorConfig withConsumerAssignmentIntervalMs(int intervalMs) {
        return new GroupCoordinatorConfig(minSessionTimeoutMs, maxSessionTimeoutMs, initialRebalanceDelayMs, maxSize,
                offsetsRetentionMs, offsetsRetentionCheckIntervalMs, offsetMetadataMaxBytes, consumerSessionTimeoutMs,
                consumerHeartbeatIntervalMs, consumerMaxSize, consumerAssignors, consumerBounds, intervalMs,
                consumerRegexRefreshIntervalMs);
    }

    /** A copy with another {@code group.consumer.regex.refresh.interval.ms}. */
    public GroupCoordinatorConfig withConsumerRegexRefreshIntervalMs(int intervalMs) {
        return new GroupCoordinatorConfig(minSessionTimeoutMs, maxSessionTimeoutMs, initialRebalanceDelayMs, maxSize,
                offsetsRetentionMs, offsetsRetentionCheckIntervalMs, offsetMetadataMaxBytes, consumerSessionTimeoutMs,
                consumerHeartbeatIntervalMs, consumerMaxSize, consumerAssignors, consumerBounds,
                consumerAssignmentIntervalMs, intervalMs);
    }

    /** How long a new member's JoinGroup may wait before the member is dropped (Kafka's constant). */
    public static final int NEW_MEMBER_JOIN_TIMEOUT_MS = 5 * 60 * 1000;

    public static GroupCoordinatorConfig defaults() {
        // KIP-848 settings: see the seven-argument constructor.
        return new GroupCoordinatorConfig(6000, 1_800_000, 3000, Integer.MAX_VALUE, TimeUnit.DAYS.toMillis(7), 600_000, 4096);
    }

    /**
     * The short name of a configured server-side assignor: {@code uniform} or {@code range}, given by that
     * name or by Kafka's class name ({@code org.apache.kafka.coordinator.group.assignor.UniformAssignor}...);
     * null if it names no assignor this coordinator has.
     */
    public static String assignorName(String configured) {
        return ConsumerAssignors.shortName(configured);
    }

    /** The short names of the server-side assignors, the default first. */
    public static List<String> assignorNames() {
        return ConsumerAssignors.NAMES;
    }
}
