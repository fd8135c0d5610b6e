package io.kaas.broker.topic;

import io.kaas.wire.protocol.Errors;
import io.kaas.api.cluster.TopicExistsException;
import io.kaas.api.cluster.TopicRecord;
import io.kaas.api.cluster.UnknownTopicException;
import io.kaas.api.storage.InvalidConfigException;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.broker.BrokerContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The topics this broker serves. Lookups are lock-free and safe from any thread; create, delete and
 * alter are serialized and block on cluster-state and storage I/O (never call them on an event loop).
 */
public final class TopicManager implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TopicManager.class);

    private final BrokerContext ctx;
    private final TopicConfigResolver resolver;
    private final TopicNames names;
    private final ConcurrentHashMap<String, Topic> byName = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<UUID, Topic> byId = new ConcurrentHashMap<>();
    private final PartitionWatchers watchers = new PartitionWatchers();
    private final Map<String, InternalTopic> internalTopics = new ConcurrentHashMap<>();
    private final Object lock = new Object();

    /** How an internal topic is created on first use. */
    private record InternalTopic(int partitions, Map<String, String> configs) {
    }

    /** @param names the names topics may have: Kafka's rules, and none the backends reserve */
    public TopicManager(BrokerContext ctx, TopicNames names) {
        this.ctx = ctx;
        this.resolver = new TopicConfigResolver(ctx.config());
        this.names = names;
    }

    /** The names topics may have here. */
    public TopicNames names() {
        return names;
    }

    /** Loads every topic from the cluster store and opens (recovering) each partition. */
    public void open() throws IOException {
        synchronized (lock) {
            for (TopicRecord record : ctx.clusterStore().topics()) {
                install(record, openLogs(record, 0, List.of()));
            }
        }
        LOG.atInfo().setMessage("topics opened").addKeyValue("topics", byName.size()).log();
    }

    @Override
    public void close() {
        synchronized (lock) {
            byName.clear();
            byId.clear();
        }
    }

    public TopicConfigResolver configs() {
        return resolver;
    }

    public PartitionWatchers watchers() {
        return watchers;
    }

    public Optional<Topic> topic(String name) {
        return name == null ? Optional.empty() : Optional.ofNullable(byName.get(name));
    }

    public Optional<Topic> topic(UUID id) {
        return id == null ? Optional.empty() : Optional.ofNullable(byId.get(id));
    }

    /** A snapshot of every topic. */
    public Collection<Topic> topics() {
        return List.copyOf(byName.values());
    }

    /** The log of one partition, or null if the topic or partition does not exist. */
    public PartitionLog log(String topic, int partition) {
        Topic t = byName.get(topic);
        return t == null ? null : t.log(partition);
    }

    /** Reports new data in a partition: wakes the fetches waiting on it. */
    public void appended(PartitionKey key) {
        watchers.appended(key);
    }

    /**
     * Creates a topic (or, with {@code validateOnly}, only checks that it could be created).
     *
     * @param partitions        -1 for {@code num.partitions}
     * @param replicationFactor -1 or 1 (a single broker)
     * @return the topic's record (with a zero id when only validated)
     * @throws TopicException with Kafka's error code and message
     */
    public TopicRecord create(String name, int partitions, int replicationFactor, Map<String, String> configs,
                              boolean validateOnly) {
        String invalid = names.refusal(name);
        if (invalid != null) {
            throw new TopicException(Errors.INVALID_TOPIC_EXCEPTION, invalid);
        }
        int count = partitions == -1 ? ctx.config().numPartitions() : partitions;
        if (count < 1) {
            throw new TopicException(Errors.INVALID_PARTITIONS,
                    "Number of partitions was set to an invalid non-positive value.");
        }
        checkReplicationFactor(replicationFactor);
        checkBatchSize(1L + count + configs.size());
        Map<String, String> clean = resolver.validate(configs);
        checkEngineServes(clean);
        synchronized (lock) {
            if (byName.containsKey(name)) {
                throw new TopicException(Errors.TOPIC_ALREADY_EXISTS, "Topic '" + name + "' already exists.");
            }
            for (String existing : byName.keySet()) {
                if (TopicNames.collide(existing, name)) {
                    throw new TopicException(Errors.INVALID_TOPIC_EXCEPTION,
                            "Topic '" + name + "' collides with existing topic: " + existing);
                }
            }
            if (validateOnly) {
                return new TopicRecord(name, new UUID(0, 0), count, clean);
            }
            TopicRecord record = new TopicRecord(name, UUID.randomUUID(), count, clean);
            try {
                ctx.clusterStore().createTopic(record);
            } catch (TopicExistsException e) {
                throw new TopicException(Errors.TOPIC_ALREADY_EXISTS, e.getMessage());
            }
            install(record, openLogs(record, 0, List.of()));
            LOG.atInfo().setMessage("topic created").addKeyValue("topic", name)
                    .addKeyValue("topicId", record.topicId()).addKeyValue("partitions", count).log();
            return record;
        }
    }

    /** Asks the storage engine whether it can serve a topic with {@code configs} (e.g. compaction); INVALID_CONFIG if not. */
    private void checkEngineServes(Map<String, String> configs) {
        try {
            ctx.storageEngine().checkConfig(resolver.logConfig(configs));
        } catch (InvalidConfigException e) {
            throw new TopicException(Errors.INVALID_CONFIG, e.getMessage());
        }
    }

    private static void checkReplicationFactor(int replicationFactor) {
        if (replicationFactor == -1 || replicationFactor == 1) {
            return;
        }
        if (replicationFactor < 1) {
            throw new TopicException(Errors.INVALID_REPLICATION_FACTOR,
                    "Replication factor must be larger than 0, or -1 to use the default value.");
        }
        throw new TopicException(Errors.INVALID_REPLICATION_FACTOR, "Unable to replicate the partition "
                + replicationFactor + " time(s): The target replication factor of " + replicationFactor
                + " cannot be reached because only 1 broker(s) are registered.");
    }

    /**
     * Declares how the internal topic {@code name} ({@code __transaction_state}) is created on first use, by its
     * coordinator or by a Metadata request's auto-creation, as Kafka creates its internal topics with their
     * coordinator's settings rather than the broker's defaults.
     */
    public void defineInternal(String name, int partitions, Map<String, String> configs) {
        internalTopics.put(name, new InternalTopic(partitions, Map.copyOf(configs)));
    }

    /**
     * Creates the internal topic {@code name} as {@link #defineInternal} declared it, if it does not exist.
     *
     * @throws TopicException as {@link #create}, or UNKNOWN_TOPIC_OR_PARTITION if {@code name} was never defined
     */
    public Topic createInternal(String name) {
        InternalTopic def = internalTopics.get(name);
        if (def == null) {
            throw new TopicException(Errors.UNKNOWN_TOPIC_OR_PARTITION, "No internal topic " + name + " is defined");
        }
        Topic existing = byName.get(name);
        if (existing != null) {
            return existing;
        }
        try {
            create(name, def.partitions(), -1, def.configs(), false);
            LOG.atInfo().addKeyValue("topic", name).addKeyValue("partitions", def.partitions())
                    .log("created the internal topic {} with {} partitions", name, def.partitions());
        } catch (TopicException e) {
            if (e.errorCode() != Errors.TOPIC_ALREADY_EXISTS) {
                throw e;
            }
        }
        return requireTopic(name);
    }

    /**
     * Creates {@code name} if auto-creation is on and the name is valid: with broker defaults, or an internal topic
     * as it was defined ({@link #defineInternal}; an undefined internal topic is not created).
     */
    public Optional<Topic> autoCreate(String name) {
        Topic existing = byName.get(name);
        if (existing != null || !ctx.config().autoCreateTopicsEnable() || !names.allows(name)) {
            return Optional.ofNullable(existing);
        }
        InternalTopic internal = internalTopics.get(name);
        if (internal == null && TopicNames.isInternal(name)) {
            return Optional.empty();
        }
        try {
            if (internal != null) {
                createInternal(name);
            } else {
                create(name, -1, -1, Map.of(), false);
            }
        } catch (TopicException e) {
            if (e.errorCode() != Errors.TOPIC_ALREADY_EXISTS) {
                LOG.atWarn().setMessage("auto-creation failed").addKeyValue("topic", name)
                        .addKeyValue("reason", e.getMessage()).log();
            }
        }
        return topic(name);
    }

    /**
     * Deletes a topic: closes and deletes every partition, then the cluster record.
     *
     * @throws TopicException TOPIC_DELETION_DISABLED or UNKNOWN_TOPIC_OR_PARTITION
     */
    public TopicRecord delete(String name) {
        if (!ctx.config().deleteTopicEnable()) {
            throw new TopicException(Errors.TOPIC_DELETION_DISABLED,
                    "Topic deletion is disabled (delete.topic.enable=false).");
        }
        synchronized (lock) {
            Topic topic = byName.remove(name);
            if (topic == null) {
                throw new TopicException(Errors.UNKNOWN_TOPIC_OR_PARTITION,
                        "This server does not host this topic-partition.");
            }
            byId.remove(topic.id());
            for (PartitionLog log : topic.logs()) {
                try {
                    ctx.storageEngine().deletePartition(log.key());
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot delete partition " + log.key(), e);
                }
                watchers.appended(log.key());
            }
            try {
                ctx.clusterStore().deleteTopic(name);
            } catch (UnknownTopicException e) {
                // already gone from the store: the partitions are deleted, which is what was asked
            }
            LOG.atInfo().setMessage("topic deleted").addKeyValue("topic", name).addKeyValue("topicId", topic.id()).log();
            return topic.record();
        }
    }

    /**
     * Raises a topic's partition count.
     *
     * @throws TopicException UNKNOWN_TOPIC_OR_PARTITION or INVALID_PARTITIONS
     */
    /**
     * Kafka's controller refuses an operation that would write more than {@value #MAX_RECORDS_PER_OPERATION} metadata
     * records (a topic, each partition, each config): so does kaas, before opening any log.
     */
    static final int MAX_RECORDS_PER_OPERATION = 10_000;

    private static void checkBatchSize(long records) {
        if (records > MAX_RECORDS_PER_OPERATION) {
            throw new TopicException(Errors.POLICY_VIOLATION, "Unable to perform excessively large batch operation.");
        }
    }

    public TopicRecord createPartitions(String name, int count, boolean validateOnly) {
        synchronized (lock) {
            Topic topic = requireTopic(name);
            int current = topic.partitionCount();
            if (count < current) {
                throw new TopicException(Errors.INVALID_PARTITIONS, "Topic currently has " + current
                        + " partitions, which is higher than the requested " + count + ".");
            }
            if (count == current) {
                throw new TopicException(Errors.INVALID_PARTITIONS,
                        "Topic already has " + current + " partitions.");
            }
            checkBatchSize((long) count - current);
            if (validateOnly) {
                return topic.record().withPartitions(count);
            }
            TopicRecord record = ctx.clusterStore().updatePartitionCount(name, count);
            install(record, openLogs(record, current, topic.logs()));
            return record;
        }
    }

    /**
     * Replaces a topic's config overrides (validated first).
     *
     * @throws TopicException UNKNOWN_TOPIC_OR_PARTITION or INVALID_CONFIG
     */
    public TopicRecord replaceConfigs(String name, Map<String, String> overrides, boolean validateOnly) {
        Map<String, String> clean = resolver.validate(overrides);
        checkEngineServes(clean);
        synchronized (lock) {
            Topic topic = requireTopic(name);
            if (validateOnly) {
                return topic.record().withConfigs(clean);
            }
            TopicRecord record = ctx.clusterStore().updateTopicConfigs(name, clean);
            LogConfig logConfig = resolver.logConfig(record.configs());
            for (PartitionLog log : topic.logs()) {
                log.updateConfig(logConfig);
            }
            install(record, topic.logs());
            return record;
        }
    }

    private Topic requireTopic(String name) {
        Topic topic = byName.get(name);
        if (topic == null) {
            throw new TopicException(Errors.UNKNOWN_TOPIC_OR_PARTITION,
                    "This server does not host this topic-partition.");
        }
        return topic;
    }

    private List<PartitionLog> openLogs(TopicRecord record, int from, List<PartitionLog> existing) {
        LogConfig logConfig = resolver.logConfig(record.configs());
        List<PartitionLog> logs = new ArrayList<>(existing);
        for (int p = from; p < record.partitions(); p++) {
            try {
                logs.add(ctx.storageEngine().openPartition(new PartitionKey(record.name(), record.topicId(), p), logConfig));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot open partition " + record.name() + "-" + p, e);
            }
        }
        return logs;
    }

    private void install(TopicRecord record, List<PartitionLog> logs) {
        Topic topic = new Topic(record, logs, resolver.logConfig(record.configs()));
        byName.put(record.name(), topic);
        byId.put(record.topicId(), topic);
    }
}
