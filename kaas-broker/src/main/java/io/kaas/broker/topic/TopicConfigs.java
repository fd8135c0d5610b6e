package io.kaas.broker.topic;

import static io.kaas.broker.topic.TopicConfigDef.ANY;
import static io.kaas.broker.topic.TopicConfigDef.atLeast;
import static io.kaas.broker.topic.TopicConfigDef.between;
import static io.kaas.broker.topic.TopicConfigDef.listOf;
import static io.kaas.broker.topic.TopicConfigDef.oneOf;

import io.kaas.broker.config.ConfigType;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** Every topic-level config Kafka 4.x knows, with its type, default, broker synonym and documentation. */
public final class TopicConfigs {
    public static final String CLEANUP_POLICY = "cleanup.policy";
    public static final String MAX_MESSAGE_BYTES = "max.message.bytes";
    public static final String MESSAGE_TIMESTAMP_TYPE = "message.timestamp.type";
    public static final String RETENTION_BYTES = "retention.bytes";
    public static final String RETENTION_MS = "retention.ms";
    public static final String SEGMENT_BYTES = "segment.bytes";
    public static final String SEGMENT_MS = "segment.ms";
    public static final String FLUSH_MESSAGES = "flush.messages";
    public static final String DELETE_RETENTION_MS = "delete.retention.ms";
    public static final String MIN_COMPACTION_LAG_MS = "min.compaction.lag.ms";
    public static final String MAX_COMPACTION_LAG_MS = "max.compaction.lag.ms";
    public static final String MIN_CLEANABLE_DIRTY_RATIO = "min.cleanable.dirty.ratio";

    private static final String LONG_MAX = String.valueOf(Long.MAX_VALUE);
    private static final Map<String, TopicConfigDef> DEFS = build();

    private TopicConfigs() {
    }

    /** All definitions, in name order. */
    public static Map<String, TopicConfigDef> all() {
        return DEFS;
    }

    public static TopicConfigDef get(String name) {
        return DEFS.get(name);
    }

    private static Map<String, TopicConfigDef> build() {
        Map<String, TopicConfigDef> m = new LinkedHashMap<>();
        def(m, CLEANUP_POLICY, ConfigType.LIST, "delete", "log.cleanup.policy", listOf("delete", "compact"),
                "A string that is either \"delete\" or \"compact\" or both. This string designates the retention policy to use on old log segments.");
        def(m, "compression.gzip.level", ConfigType.INT, "-1", "compression.gzip.level", ANY,
                "The compression level to use if compression.type is set to gzip.");
        def(m, "compression.lz4.level", ConfigType.INT, "9", "compression.lz4.level", between(1, 17),
                "The compression level to use if compression.type is set to lz4.");
        def(m, "compression.type", ConfigType.STRING, "producer", "compression.type",
                oneOf("uncompressed", "zstd", "lz4", "snappy", "gzip", "producer"),
                "Specify the final compression type for a given topic.");
        def(m, "compression.zstd.level", ConfigType.INT, "3", "compression.zstd.level", between(-131072, 22),
                "The compression level to use if compression.type is set to zstd.");
        def(m, DELETE_RETENTION_MS, ConfigType.LONG, "86400000", "log.cleaner.delete.retention.ms", atLeast(0),
                "The amount of time to retain delete tombstone markers for log compacted topics.");
        def(m, "file.delete.delay.ms", ConfigType.LONG, "60000", "log.segment.delete.delay.ms", atLeast(0),
                "The time to wait before deleting a file from the filesystem.");
        def(m, FLUSH_MESSAGES, ConfigType.LONG, LONG_MAX, "log.flush.interval.messages", atLeast(1),
                "The number of messages written to a log partition before we force an fsync of the log.");
        def(m, "flush.ms", ConfigType.LONG, LONG_MAX, "log.flush.interval.ms", atLeast(0),
                "The maximum time a message may stay in the log before an fsync is forced.");
        def(m, "follower.replication.throttled.replicas", ConfigType.LIST, "", null, ANY,
                "A list of replicas for which log replication should be throttled on the follower side.");
        def(m, "index.interval.bytes", ConfigType.INT, "4096", "log.index.interval.bytes", atLeast(0),
                "How frequently Kafka adds an index entry to its offset index.");
        def(m, "leader.replication.throttled.replicas", ConfigType.LIST, "", null, ANY,
                "A list of replicas for which log replication should be throttled on the leader side.");
        def(m, "local.retention.bytes", ConfigType.LONG, "-2", "log.local.retention.bytes", atLeast(-2),
                "The maximum size of local log segments that can grow for a partition before it deletes the old segments.");
        def(m, "local.retention.ms", ConfigType.LONG, "-2", "log.local.retention.ms", atLeast(-2),
                "The number of milliseconds to keep the local log segment before it gets deleted.");
        def(m, MAX_COMPACTION_LAG_MS, ConfigType.LONG, LONG_MAX, "log.cleaner.max.compaction.lag.ms", atLeast(1),
                "The maximum time a message will remain ineligible for compaction in the log.");
        def(m, MAX_MESSAGE_BYTES, ConfigType.INT, "1048588", "message.max.bytes", atLeast(0),
                "The largest record batch size allowed by Kafka (after compression if compression is enabled).");
        def(m, "message.timestamp.after.max.ms", ConfigType.LONG, "3600000", "log.message.timestamp.after.max.ms", atLeast(0),
                "The maximum allowed time a message timestamp may be ahead of the broker's timestamp.");
        def(m, "message.timestamp.before.max.ms", ConfigType.LONG, LONG_MAX, "log.message.timestamp.before.max.ms", atLeast(0),
                "The maximum allowed time a message timestamp may be behind the broker's timestamp.");
        def(m, MESSAGE_TIMESTAMP_TYPE, ConfigType.STRING, "CreateTime", "log.message.timestamp.type",
                oneOf("CreateTime", "LogAppendTime"),
                "Define whether the timestamp in the message is message create time or log append time.");
        def(m, MIN_CLEANABLE_DIRTY_RATIO, ConfigType.DOUBLE, "0.5", "log.cleaner.min.cleanable.ratio", between(0, 1),
                "The minimum ratio of dirty log to total log for a log to be eligible for cleaning.");
        def(m, MIN_COMPACTION_LAG_MS, ConfigType.LONG, "0", "log.cleaner.min.compaction.lag.ms", atLeast(0),
                "The minimum time a message will remain uncompacted in the log.");
        def(m, "min.insync.replicas", ConfigType.INT, "1", "min.insync.replicas", atLeast(1),
                "The minimum number of replicas that must acknowledge a write for it to be considered successful with acks=all.");
        def(m, "preallocate", ConfigType.BOOLEAN, "false", "log.preallocate", ANY,
                "True if we should preallocate the file on disk when creating a new log segment.");
        def(m, "remote.log.copy.disable", ConfigType.BOOLEAN, "false", null, ANY,
                "Determines whether tiered data for a topic should become read only.");
        def(m, "remote.log.delete.on.disable", ConfigType.BOOLEAN, "false", null, ANY,
                "Determines whether tiered data for a topic should be deleted after tiered storage is disabled on a topic.");
        def(m, "remote.storage.enable", ConfigType.BOOLEAN, "false", null, ANY,
                "To enable tiered storage for a topic, set this configuration to true.");
        def(m, RETENTION_BYTES, ConfigType.LONG, "-1", "log.retention.bytes", ANY,
                "The maximum size a partition can grow to before old log segments are discarded; -1 means no limit.");
        def(m, RETENTION_MS, ConfigType.LONG, "604800000", "log.retention.ms", atLeast(-1),
                "The maximum time a log is retained before old log segments are discarded; -1 means no time limit.");
        def(m, SEGMENT_BYTES, ConfigType.INT, "1073741824", "log.segment.bytes", atLeast(1024 * 1024),
                "The segment file size for the log.");
        def(m, "segment.index.bytes", ConfigType.INT, "10485760", "log.index.size.max.bytes", atLeast(4),
                "The size of the index that maps offsets to file positions.");
        def(m, "segment.jitter.ms", ConfigType.LONG, "0", "log.roll.jitter.ms", atLeast(0),
                "The maximum random jitter subtracted from the scheduled segment roll time.");
        def(m, SEGMENT_MS, ConfigType.LONG, "604800000", "log.roll.ms", atLeast(1),
                "The period of time after which Kafka will force the log to roll even if the segment file isn't full.");
        def(m, "unclean.leader.election.enable", ConfigType.BOOLEAN, "false", "unclean.leader.election.enable", ANY,
                "Indicates whether to enable replicas not in the ISR set to be elected as leader as a last resort.");
        return Collections.unmodifiableMap(m);
    }

    private static void def(Map<String, TopicConfigDef> m, String name, ConfigType type, String dflt, String synonym,
                            TopicConfigDef.Validator validator, String doc) {
        m.put(name, new TopicConfigDef(name, type, dflt, synonym, validator, doc));
    }
}
