package io.kaas.coordinator.group;

import static io.kaas.coordinator.group.GroupConfigDef.CONSUMER_ASSIGNMENT_INTERVAL_MS;
import static io.kaas.coordinator.group.GroupConfigDef.CONSUMER_HEARTBEAT_INTERVAL_MS;
import static io.kaas.coordinator.group.GroupConfigDef.CONSUMER_SESSION_TIMEOUT_MS;
import static io.kaas.coordinator.group.GroupConfigDef.SHARE_AUTO_OFFSET_RESET;
import static io.kaas.coordinator.group.GroupConfigDef.SHARE_HEARTBEAT_INTERVAL_MS;
import static io.kaas.coordinator.group.GroupConfigDef.SHARE_ISOLATION_LEVEL;
import static io.kaas.coordinator.group.GroupConfigDef.SHARE_RECORD_LOCK_DURATION_MS;
import static io.kaas.coordinator.group.GroupConfigDef.SHARE_SESSION_TIMEOUT_MS;
import static io.kaas.coordinator.group.GroupConfigDef.STREAMS_HEARTBEAT_INTERVAL_MS;
import static io.kaas.coordinator.group.GroupConfigDef.STREAMS_NUM_STANDBY_REPLICAS;
import static io.kaas.coordinator.group.GroupConfigDef.STREAMS_SESSION_TIMEOUT_MS;

import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Group configs (Kafka's GROUP config resource): each group's overrides, kept in the cluster-state store,
 * over defaults taken from the broker ({@code group.consumer.session.timeout.ms},
 * {@code group.consumer.heartbeat.interval.ms}, {@code group.consumer.assignment.interval.ms}) or Kafka's defaults. Validated as Kafka's
 * {@code GroupConfigManager.validate}: the overrides merged over the defaults, each value parsed, then the
 * bounds ({@code group.consumer.min/max.*}, with Kafka 4.4's "must be in the range MIN to MAX inclusive.") and the
 * heartbeat below the session timeout.
 *
 * <p>The consumer ones are honoured: a KIP-848 consumer group's members get its heartbeat interval and
 * session timeout, and its target assignments are batched per its assignment interval. The share and streams ones are stored, validated and described as Kafka does for every
 * group, and change nothing in kaas, which serves no share or streams groups. Thread-safe (the store is).
 */
public final class GroupConfigs {
    private static final Logger LOG = LoggerFactory.getLogger(GroupConfigs.class);

    // Kafka's defaults of the group.share.* / group.streams.* broker keys kaas does not read.
    private static final int SHARE_MIN_SESSION = 45_000;
    private static final int SHARE_MAX_SESSION = 60_000;
    private static final int SHARE_MIN_HEARTBEAT = 5_000;
    private static final int SHARE_MAX_HEARTBEAT = 15_000;
    private static final int SHARE_MIN_LOCK = 15_000;
    private static final int SHARE_MAX_LOCK = 60_000;
    private static final int STREAMS_MIN_SESSION = 45_000;
    private static final int STREAMS_MAX_SESSION = 60_000;
    private static final int STREAMS_MIN_HEARTBEAT = 5_000;
    private static final int STREAMS_MAX_HEARTBEAT = 15_000;
    private static final int STREAMS_MAX_STANDBY = 2;

    /** One config of a group as DescribeConfigs reports it. */
    public record Value(GroupConfigDef def, String value, boolean override) {
    }

    private final ClusterStateStore store;
    private final GroupCoordinatorConfig config;
    private final Map<String, String> defaults;

    GroupConfigs(ClusterStateStore store, GroupCoordinatorConfig config) {
        this.store = store;
        this.config = config;
        Map<String, String> d = new LinkedHashMap<>();
        d.put(CONSUMER_SESSION_TIMEOUT_MS, Integer.toString(config.consumerSessionTimeoutMs()));
        d.put(CONSUMER_HEARTBEAT_INTERVAL_MS, Integer.toString(config.consumerHeartbeatIntervalMs()));
        d.put(CONSUMER_ASSIGNMENT_INTERVAL_MS, Integer.toString(config.consumerAssignmentIntervalMs()));
        d.put(SHARE_SESSION_TIMEOUT_MS, "45000");
        d.put(SHARE_HEARTBEAT_INTERVAL_MS, "5000");
        d.put(SHARE_RECORD_LOCK_DURATION_MS, "30000");
        d.put(SHARE_AUTO_OFFSET_RESET, "latest");
        d.put(SHARE_ISOLATION_LEVEL, "read_uncommitted");
        d.put(STREAMS_SESSION_TIMEOUT_MS, "45000");
        d.put(STREAMS_HEARTBEAT_INTERVAL_MS, "5000");
        d.put(STREAMS_NUM_STANDBY_REPLICAS, "0");
        this.defaults = Map.copyOf(d);
    }

    /** The group's overrides as stored. */
    public Map<String, String> overrides(String groupId) {
        return store.groupConfigs(groupId);
    }

    /** The ids of the groups with overrides. */
    public Collection<String> groupIds() {
        return store.groupsWithConfigs();
    }

    /** Every group config of {@code groupId}, in Kafka's order: its override, else the default. */
    public List<Value> describe(String groupId) {
        checkName(groupId, "Group name must not be empty");
        Map<String, String> overrides = store.groupConfigs(groupId);
        List<Value> out = new ArrayList<>();
        for (GroupConfigDef def : GroupConfigDef.ALL) {
            String override = overrides.get(def.name());
            out.add(override != null ? new Value(def, override.trim(), true) : new Value(def, defaults.get(def.name()), false));
        }
        return out;
    }

    /**
     * Replaces the overrides of {@code groupId} with {@code overrides} (all of them: the caller applied
     * the incremental operations), after Kafka's validation; with {@code validateOnly} nothing is stored.
     *
     * @throws GroupConfigException INVALID_REQUEST for the empty group id, INVALID_CONFIG for an unknown
     *                              name, a malformed value or one out of bounds
     */
    public void alter(String groupId, Map<String, String> overrides, boolean validateOnly) {
        checkName(groupId, "Default group resources are not allowed.");
        try {
            validate(overrides);
        } catch (GroupConfigException e) {
            LOG.atInfo().addKeyValue("group", groupId).addKeyValue("configs", overrides)
                    .log("Refused group configs {} of group {}: {}", overrides, groupId, e.getMessage());
            throw e;
        }
        if (validateOnly) {
            return;
        }
        store.updateGroupConfigs(groupId, overrides);
        LOG.atInfo().addKeyValue("group", groupId).addKeyValue("configs", overrides)
                .log("Group configs of group {} set to {}", groupId, overrides);
    }

    private static void checkName(String groupId, String message) {
        if (groupId == null || groupId.isEmpty()) {
            throw new GroupConfigException(Errors.INVALID_REQUEST, message);
        }
    }

    /** Kafka's GroupConfig.validate over the defaults merged with {@code overrides}. */
    void validate(Map<String, String> overrides) {
        List<String> nulls = new ArrayList<>();
        for (Map.Entry<String, String> e : overrides.entrySet()) {
            if (GroupConfigDef.get(e.getKey()) == null) {
                throw new GroupConfigException(Errors.INVALID_CONFIG, "Unknown group config name: " + e.getKey());
            }
            if (e.getValue() == null) {
                nulls.add(e.getKey());
            }
        }
        if (!nulls.isEmpty()) {
            throw new GroupConfigException(Errors.INVALID_CONFIG,
                    "Null value not supported for group configs: " + String.join(",", nulls));
        }
        Map<String, Object> v = new LinkedHashMap<>();
        for (GroupConfigDef def : GroupConfigDef.ALL) {
            String raw = overrides.getOrDefault(def.name(), defaults.get(def.name()));
            v.put(def.name(), def.parse(raw));
        }
        GroupCoordinatorConfig.ConsumerBounds b = config.consumerBounds();
        range(v, CONSUMER_HEARTBEAT_INTERVAL_MS, b.minHeartbeatIntervalMs(), b.maxHeartbeatIntervalMs());
        range(v, CONSUMER_SESSION_TIMEOUT_MS, b.minSessionTimeoutMs(), b.maxSessionTimeoutMs());
        range(v, CONSUMER_ASSIGNMENT_INTERVAL_MS, b.minAssignmentIntervalMs(), b.maxAssignmentIntervalMs());
        range(v, SHARE_HEARTBEAT_INTERVAL_MS, SHARE_MIN_HEARTBEAT, SHARE_MAX_HEARTBEAT);
        range(v, SHARE_SESSION_TIMEOUT_MS, SHARE_MIN_SESSION, SHARE_MAX_SESSION);
        range(v, SHARE_RECORD_LOCK_DURATION_MS, SHARE_MIN_LOCK, SHARE_MAX_LOCK);
        range(v, STREAMS_HEARTBEAT_INTERVAL_MS, STREAMS_MIN_HEARTBEAT, STREAMS_MAX_HEARTBEAT);
        range(v, STREAMS_SESSION_TIMEOUT_MS, STREAMS_MIN_SESSION, STREAMS_MAX_SESSION);
        if ((Integer) v.get(STREAMS_NUM_STANDBY_REPLICAS) > STREAMS_MAX_STANDBY) {
            throw invalid(STREAMS_NUM_STANDBY_REPLICAS + " must be less than or equal to " + STREAMS_MAX_STANDBY);
        }
        greater(v, CONSUMER_SESSION_TIMEOUT_MS, CONSUMER_HEARTBEAT_INTERVAL_MS);
        greater(v, SHARE_SESSION_TIMEOUT_MS, SHARE_HEARTBEAT_INTERVAL_MS);
        greater(v, STREAMS_SESSION_TIMEOUT_MS, STREAMS_HEARTBEAT_INTERVAL_MS);
    }

    /** Kafka 4.4's {@code validateIntRange}: the value between the broker's bounds, with its message. */
    private static void range(Map<String, Object> v, String name, int min, int max) {
        int value = (Integer) v.get(name);
        if (value < min || value > max) {
            throw invalid(name + " must be in the range " + min + " to " + max + " inclusive.");
        }
    }

    private static void greater(Map<String, Object> v, String session, String heartbeat) {
        if ((Integer) v.get(session) <= (Integer) v.get(heartbeat)) {
            throw invalid(session + " must be greater than " + heartbeat);
        }
    }

    private static GroupConfigException invalid(String message) {
        return new GroupConfigException(Errors.INVALID_CONFIG, message);
    }

    /** The session timeout of the group's KIP-848 members: its override, else the broker's. */
    int consumerSessionTimeoutMs(String groupId) {
        return intOverride(groupId, CONSUMER_SESSION_TIMEOUT_MS, config.consumerSessionTimeoutMs());
    }

    /** The heartbeat interval handed to the group's KIP-848 members: its override, else the broker's. */
    int consumerHeartbeatIntervalMs(String groupId) {
        return intOverride(groupId, CONSUMER_HEARTBEAT_INTERVAL_MS, config.consumerHeartbeatIntervalMs());
    }

    /**
     * The least time between two target assignments of the KIP-848 group: its override, else the broker's
     * {@code group.consumer.assignment.interval.ms}.
     */
    int consumerAssignmentIntervalMs(String groupId) {
        return intOverride(groupId, CONSUMER_ASSIGNMENT_INTERVAL_MS, config.consumerAssignmentIntervalMs());
    }

    private int intOverride(String groupId, String name, int fallback) {
        String raw = store.groupConfigs(groupId).get(name);
        if (raw == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(raw.trim());
        } catch (NumberFormatException e) {
            LOG.atWarn().addKeyValue("group", groupId).addKeyValue("config", name)
                    .log("Stored group config {}={} of group {} is not an integer; using the broker's {}", name, raw,
                            groupId, fallback);
            return fallback;
        }
    }
}
