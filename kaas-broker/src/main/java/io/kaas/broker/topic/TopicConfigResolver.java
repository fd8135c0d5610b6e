package io.kaas.broker.topic;

import io.kaas.wire.protocol.Errors;
import io.kaas.api.storage.LogConfig;
import io.kaas.broker.config.BrokerConfig;
import io.kaas.broker.config.ConfigEntry;
import io.kaas.broker.config.DynamicBrokerConfigs;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Resolves a topic's effective configs: its own overrides over the broker's settings over Kafka's
 * defaults, and validates overrides as Kafka's {@code LogConfig.validate} does.
 */
public final class TopicConfigResolver {
    private final BrokerConfig staticConfig;
    /** The broker-level values and their sources; replaced whole when the dynamic broker configs change. */
    private volatile BrokerLevel broker;

    private record BrokerLevel(Map<String, String> values, Map<String, ConfigSource> sources) {
    }

    public TopicConfigResolver(BrokerConfig config) {
        this.staticConfig = config;
        this.broker = brokerLevel(config, Map.of(), Map.of());
    }

    /**
     * Puts the dynamic broker configs ({@code clusterDefault}, then this broker's {@code perBroker} over it) above the
     * static ones; topics without an override of a key inherit the new value.
     */
    public void applyDynamic(Map<String, String> clusterDefault, Map<String, String> perBroker) {
        broker = brokerLevel(staticConfig, clusterDefault, perBroker);
    }

    private static BrokerLevel brokerLevel(BrokerConfig base, Map<String, String> clusterDefault,
                                           Map<String, String> perBroker) {
        BrokerConfig config = base.withDynamic(DynamicBrokerConfigs.merged(clusterDefault, perBroker));
        Map<String, String> values = new HashMap<>();
        Map<String, ConfigSource> sources = new HashMap<>();
        for (ConfigEntry e : config.entries()) {
            if (e.value() != null) {
                values.put(e.name(), e.value());
            }
            sources.put(e.name(), source(base, clusterDefault, perBroker, e.name()));
        }
        // The typed accessors win: they are what the broker actually uses (log.roll.ms from log.roll.hours, …).
        values.put("message.max.bytes", str(config.messageMaxBytes()));
        values.put("log.segment.bytes", str(config.logSegmentBytes()));
        values.put("log.roll.ms", str(config.logRollMs()));
        values.put("log.retention.ms", str(config.logRetentionMs()));
        values.put("log.retention.bytes", str(config.logRetentionBytes()));
        values.put("log.flush.interval.messages", str(config.logFlushIntervalMessages()));
        values.put("log.message.timestamp.type", str(config.logMessageTimestampType()));
        values.put("log.cleanup.policy", str(config.logCleanupPolicy()));
        return new BrokerLevel(Map.copyOf(values), Map.copyOf(sources));
    }

    /** Where a broker key's value comes from: the first synonym set at a level, levels in Kafka's order. */
    public static ConfigSource source(BrokerConfig base, Map<String, String> clusterDefault, Map<String, String> perBroker,
                               String key) {
        for (String synonym : DynamicBrokerConfigs.synonyms(key)) {
            if (perBroker.containsKey(synonym)) {
                return ConfigSource.DYNAMIC_BROKER_CONFIG;
            }
            if (clusterDefault.containsKey(synonym)) {
                return ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG;
            }
            if (base.isExplicit(synonym)) {
                return ConfigSource.STATIC_BROKER_CONFIG;
            }
        }
        return ConfigSource.DEFAULT_CONFIG;
    }

    private static String str(Object value) {
        if (value instanceof Collection<?> c) {
            List<String> parts = new ArrayList<>();
            c.forEach(o -> parts.add(String.valueOf(o)));
            return String.join(",", parts);
        }
        return String.valueOf(value);
    }

    /**
     * Checks names and values of topic overrides.
     *
     * @return the overrides with values trimmed
     * @throws TopicException INVALID_CONFIG naming the first bad key
     */
    public Map<String, String> validate(Map<String, String> overrides) {
        Map<String, String> clean = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : overrides.entrySet()) {
            TopicConfigDef def = TopicConfigs.get(e.getKey());
            if (def == null) {
                throw new TopicException(Errors.INVALID_CONFIG, "Unknown topic config name: " + e.getKey());
            }
            String error = def.validate(e.getValue());
            if (error != null) {
                throw new TopicException(Errors.INVALID_CONFIG, error);
            }
            clean.put(e.getKey(), e.getValue().trim());
        }
        return clean;
    }

    /** One config's effective value and source for a topic with {@code overrides}. */
    public DescribedConfig describe(TopicConfigDef def, Map<String, String> overrides, boolean withDoc) {
        String doc = withDoc ? def.documentation() : null;
        String override = overrides.get(def.name());
        if (override != null) {
            return new DescribedConfig(def.name(), override, ConfigSource.DYNAMIC_TOPIC_CONFIG, def.type(), false, false, doc);
        }
        String synonym = def.brokerSynonym();
        BrokerLevel level = broker;
        if (synonym != null && level.values().containsKey(synonym)) {
            ConfigSource source = level.sources().getOrDefault(synonym, ConfigSource.DEFAULT_CONFIG);
            return new DescribedConfig(def.name(), level.values().get(synonym), source, def.type(), false, false, doc);
        }
        return new DescribedConfig(def.name(), def.kafkaDefault(), ConfigSource.DEFAULT_CONFIG, def.type(), false, false, doc);
    }

    /** Every topic config's effective value, in name order. */
    public List<DescribedConfig> describeAll(Map<String, String> overrides, boolean withDoc) {
        List<DescribedConfig> out = new ArrayList<>();
        for (TopicConfigDef def : TopicConfigs.all().values()) {
            out.add(describe(def, overrides, withDoc));
        }
        return out;
    }

    private String value(String name, Map<String, String> overrides) {
        return describe(TopicConfigs.get(name), overrides, false).value();
    }

    /** The engine settings for a topic with {@code overrides}. */
    public LogConfig logConfig(Map<String, String> overrides) {
        LogConfig d = LogConfig.defaults();
        String policy = String.valueOf(value(TopicConfigs.CLEANUP_POLICY, overrides));
        return new LogConfig(
                parseLong(value(TopicConfigs.SEGMENT_BYTES, overrides), d.segmentBytes()),
                parseLong(value(TopicConfigs.SEGMENT_MS, overrides), d.segmentMs()),
                parseLong(value(TopicConfigs.RETENTION_MS, overrides), d.retentionMs()),
                parseLong(value(TopicConfigs.RETENTION_BYTES, overrides), d.retentionBytes()),
                (int) parseLong(value(TopicConfigs.MAX_MESSAGE_BYTES, overrides), d.maxMessageBytes()),
                parseLong(value(TopicConfigs.FLUSH_MESSAGES, overrides), d.flushMessages()),
                "LogAppendTime".equals(value(TopicConfigs.MESSAGE_TIMESTAMP_TYPE, overrides)),
                policy.contains("compact"),
                policy.contains("delete"),
                parseLong(value(TopicConfigs.DELETE_RETENTION_MS, overrides), d.deleteRetentionMs()),
                parseLong(value(TopicConfigs.MIN_COMPACTION_LAG_MS, overrides), d.minCompactionLagMs()),
                parseLong(value(TopicConfigs.MAX_COMPACTION_LAG_MS, overrides), d.maxCompactionLagMs()),
                parseDouble(value(TopicConfigs.MIN_CLEANABLE_DIRTY_RATIO, overrides), d.minCleanableDirtyRatio()));
    }

    private static double parseDouble(String value, double fallback) {
        try {
            return value == null ? fallback : Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    private static long parseLong(String value, long fallback) {
        try {
            return value == null ? fallback : Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
