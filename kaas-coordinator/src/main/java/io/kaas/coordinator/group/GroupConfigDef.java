package io.kaas.coordinator.group;

import io.kaas.wire.protocol.Errors;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One of Kafka's group configs (the GROUP config resource, {@code GroupConfig} in Kafka 4.x), with its
 * type as DescribeConfigs names it ({@code INT} or {@code STRING}), its documentation, and the check
 * of a single value Kafka's {@code ConfigDef} makes (type, lower bound, allowed strings).
 *
 * @param name          the config name
 * @param type          {@code INT} or {@code STRING}
 * @param atLeast       the lowest value of an INT config (Kafka's {@code ConfigDef.Range.atLeast})
 * @param documentation Kafka's description
 */
public record GroupConfigDef(String name, String type, int atLeast, String documentation) {
    public static final String CONSUMER_SESSION_TIMEOUT_MS = "consumer.session.timeout.ms";
    public static final String CONSUMER_HEARTBEAT_INTERVAL_MS = "consumer.heartbeat.interval.ms";
    public static final String CONSUMER_ASSIGNMENT_INTERVAL_MS = "consumer.assignment.interval.ms";
    public static final String SHARE_SESSION_TIMEOUT_MS = "share.session.timeout.ms";
    public static final String SHARE_HEARTBEAT_INTERVAL_MS = "share.heartbeat.interval.ms";
    public static final String SHARE_RECORD_LOCK_DURATION_MS = "share.record.lock.duration.ms";
    public static final String SHARE_AUTO_OFFSET_RESET = "share.auto.offset.reset";
    public static final String SHARE_ISOLATION_LEVEL = "share.isolation.level";
    public static final String STREAMS_SESSION_TIMEOUT_MS = "streams.session.timeout.ms";
    public static final String STREAMS_HEARTBEAT_INTERVAL_MS = "streams.heartbeat.interval.ms";
    public static final String STREAMS_NUM_STANDBY_REPLICAS = "streams.num.standby.replicas";

    /** Every group config, in the order DescribeConfigs lists them. */
    public static final List<GroupConfigDef> ALL = List.of(
            new GroupConfigDef(CONSUMER_SESSION_TIMEOUT_MS, "INT", 1,
                    "The timeout to detect client failures when using the consumer group protocol."),
            new GroupConfigDef(CONSUMER_HEARTBEAT_INTERVAL_MS, "INT", 1,
                    "The heartbeat interval given to the members of a consumer group."),
            new GroupConfigDef(CONSUMER_ASSIGNMENT_INTERVAL_MS, "INT", 0,
                    "The interval between assignment updates for a consumer group."),
            new GroupConfigDef(SHARE_SESSION_TIMEOUT_MS, "INT", 1,
                    "The timeout to detect client failures when using the share group protocol."),
            new GroupConfigDef(SHARE_HEARTBEAT_INTERVAL_MS, "INT", 1,
                    "The heartbeat interval given to the members of a share group."),
            new GroupConfigDef(SHARE_RECORD_LOCK_DURATION_MS, "INT", 1000,
                    "The record acquisition lock duration in milliseconds for share groups."),
            new GroupConfigDef(SHARE_AUTO_OFFSET_RESET, "STRING", 0,
                    "The strategy to initialize the share-partition start offset. <ul><li>earliest: automatically reset the "
                            + "offset to the earliest offset</li><li>latest: automatically reset the offset to the latest "
                            + "offset</li><li>by_duration:&lt;duration&gt;: automatically reset the offset to a configured "
                            + "duration from the current timestamp. &lt;duration&gt; must be specified in ISO8601 format "
                            + "(PnDTnHnMn.nS). Negative duration is not allowed.</li><li>anything else: throw exception to "
                            + "the share consumer.</li></ul>"),
            new GroupConfigDef(SHARE_ISOLATION_LEVEL, "STRING", 0,
                    "Controls how to read records written transactionally. If set to \"read_committed\", the share group "
                            + "will only deliver transactional records which have been committed. If set to "
                            + "\"read_uncommitted\", the share group will return all messages, even transactional messages "
                            + "which have been aborted. Non-transactional records will be returned unconditionally in "
                            + "either mode."),
            new GroupConfigDef(STREAMS_SESSION_TIMEOUT_MS, "INT", 1,
                    "The timeout to detect client failures when using the streams group protocol."),
            new GroupConfigDef(STREAMS_HEARTBEAT_INTERVAL_MS, "INT", 1, "The heartbeat interval given to the members."),
            new GroupConfigDef(STREAMS_NUM_STANDBY_REPLICAS, "INT", 0, "The number of standby replicas for each task."));

    private static final Map<String, GroupConfigDef> BY_NAME = byName();

    private static Map<String, GroupConfigDef> byName() {
        Map<String, GroupConfigDef> m = new LinkedHashMap<>();
        ALL.forEach(d -> m.put(d.name(), d));
        return m;
    }

    /** The definition of {@code name}, or null if Kafka has no such group config. */
    public static GroupConfigDef get(String name) {
        return BY_NAME.get(name);
    }

    /**
     * The value parsed as Kafka's ConfigDef parses it (trimmed; an Integer for INT, the String otherwise).
     *
     * @throws GroupConfigException INVALID_CONFIG with Kafka's "Invalid value ... for configuration ..." message
     */
    Object parse(String value) {
        String trimmed = value.trim();
        if (type.equals("INT")) {
            int parsed;
            try {
                parsed = Integer.parseInt(trimmed);
            } catch (NumberFormatException e) {
                throw invalid(value, "Not a number of type INT");
            }
            if (parsed < atLeast) {
                throw invalid(parsed, "Value must be at least " + atLeast);
            }
            return parsed;
        }
        if (name.equals(SHARE_ISOLATION_LEVEL)) {
            if (!List.of("read_committed", "read_uncommitted").contains(trimmed)) {
                throw invalid(trimmed, "String must be one of: read_committed, read_uncommitted");
            }
        } else if (name.equals(SHARE_AUTO_OFFSET_RESET) && !validAutoOffsetReset(trimmed)) {
            throw invalid(trimmed, "Invalid value `" + trimmed + "` for configuration " + name
                    + ". The value must be either 'earliest', 'latest' or of the format 'by_duration:<PnDTnHnMn.nS>'.");
        }
        return trimmed;
    }

    /** earliest, latest or by_duration:&lt;a non-negative ISO-8601 duration&gt;, in any case. */
    private static boolean validAutoOffsetReset(String value) {
        String lower = value.toLowerCase(Locale.ROOT);
        if (lower.equals("earliest") || lower.equals("latest")) {
            return true;
        }
        if (!lower.startsWith("by_duration:")) {
            return false;
        }
        try {
            return !Duration.parse(value.substring("by_duration:".length()).trim()).isNegative();
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    private GroupConfigException invalid(Object value, String why) {
        return new GroupConfigException(Errors.INVALID_CONFIG,
                "Invalid value " + value + " for configuration " + name + ": " + why);
    }
}
