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
import io.kaas.broker.cluster.PartitionOwnership;
import io.kaas.api.cluster.PartitionLeader;
import io.kaas.api.storage.PartitionFence;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The topics of the cluster, and the logs of the partitions this broker writes. Topics come from the cluster-state
 * store (any broker may create, delete or alter one there; each broker takes the change when the store reports it);
 * logs are opened and closed by the {@link PartitionOwnership} as the controller assigns partitions, and published
 * here. Lookups are lock-free and safe from any thread; create, delete and alter are serialized and block on
 * cluster-state and storage I/O (never call them on an event loop).
 */
public final class TopicManager implements PartitionOwnership.Host, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TopicManager.class);

    private final BrokerContext ctx;
    private final TopicConfigResolver resolver;
    private final TopicNames names;
    private final ConcurrentHashMap<String, Topic> byName = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<UUID, Topic> byId = new ConcurrentHashMap<>();
    private final PartitionWatchers watchers = new PartitionWatchers();
    private final io.kaas.broker.metrics.BrokerTopicStats stats = new io.kaas.broker.metrics.BrokerTopicStats();
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

    /** How long create and partition increase wait for the new partitions to be led (and opened, if here). */
    static final long LEAD_WAIT_MS = 10_000;

    /** Loads every topic from the cluster store; the ownership opens the partitions assigned here. */
    public void open() {
        sync(ctx.clusterStore().topics());
        LOG.atInfo().setMessage("topics loaded").addKeyValue("topics", byName.size()).log();
    }

    // ---- PartitionOwnership.Host ----

    @Override
    public void sync(Collection<TopicRecord> records) {
        synchronized (lock) {
            java.util.Set<UUID> seen = new java.util.HashSet<>();
            for (TopicRecord record : records) {
                seen.add(record.topicId());
                Topic current = byId.get(record.topicId());
                if (current == null) {
                    Topic old = byName.get(record.name());
                    if (old != null) {
                        byId.remove(old.id());
                    }
                    put(new Topic(record, resolver.logConfig(record.configs())));
                } else if (!current.record().equals(record)) {
                    LogConfig config = resolver.logConfig(record.configs());
                    if (!current.record().configs().equals(record.configs())) {
                        for (PartitionLog log : current.logs()) {
                            log.updateConfig(config);
                        }
                    }
                    put(current.withRecord(record, config));
                }
            }
            for (Topic t : List.copyOf(byId.values())) {
                if (!seen.contains(t.id())) {
                    byId.remove(t.id());
                    byName.remove(t.name(), t);
                    for (PartitionLog log : t.logs()) {
                        watchers.appended(log.key());
                    }
                }
            }
        }
    }

    /**
     * Applies the dynamic broker configs (the cluster default and this broker's own): every topic without an override
     * of a changed key gets the new value, its open partitions at once.
     */
    public void applyDynamicBrokerConfigs(Map<String, String> clusterDefault, Map<String, String> perBroker) {
        synchronized (lock) {
            resolver.applyDynamic(clusterDefault, perBroker);
            for (Topic t : List.copyOf(byId.values())) {
                LogConfig config = resolver.logConfig(t.record().configs());
                if (!config.equals(t.logConfig())) {
                    for (PartitionLog log : t.logs()) {
                        log.updateConfig(config);
                    }
                    put(t.withRecord(t.record(), config));
                }
            }
        }
    }

    @Override
    public LogConfig logConfig(TopicRecord topic) {
        return resolver.logConfig(topic.configs());
    }

    @Override
    public void publish(PartitionKey key, PartitionLog log, int leaderEpoch) {
        synchronized (lock) {
            Topic t = byId.get(key.topicId());
            if (t != null && t.hasPartition(key.partition())) {
                put(t.withLog(key.partition(), log, leaderEpoch));
            }
        }
        watchers.appended(key);
    }

    @Override
    public void unpublish(PartitionKey key) {
        synchronized (lock) {
            Topic t = byId.get(key.topicId());
            if (t != null && t.log(key.partition()) != null) {
                put(t.withLog(key.partition(), null, -1));
            }
        }
        // Fetches waiting on it answer now (NOT_LEADER_OR_FOLLOWER) rather than at their timeout.
        watchers.appended(key);
    }

    private void put(Topic topic) {
        byName.put(topic.name(), topic);
        byId.put(topic.id(), topic);
    }

    /**
     * Why a partition has no log here: UNKNOWN_TOPIC_OR_PARTITION if the topic or partition does not exist,
     * NOT_LEADER_OR_FOLLOWER if another broker writes it (or none does yet).
     */
    public short absence(String topic, int partition) {
        Topic t = topic == null ? null : byName.get(topic);
        return t != null && t.hasPartition(partition) ? Errors.NOT_LEADER_OR_FOLLOWER : Errors.UNKNOWN_TOPIC_OR_PARTITION;
    }

    /**
     * Whether this broker may acknowledge a write to {@code partition} of {@code topic} now: it still owns it at the
     * epoch it opened it with and its lease holds. A volatile read, a map lookup and a clock read.
     */
    public boolean mayAcknowledge(Topic topic, int partition) {
        PartitionLog log = topic.log(partition);
        return log != null && fence().mayWrite(log.key(), topic.leaderEpoch(partition));
    }

    private PartitionFence fence() {
        return ctx.cluster() == null ? PartitionFence.NONE : ctx.cluster().fence();
    }

    /** Waits (bounded) until every partition of {@code name} has a live leader, and those led here are open. */
    private void awaitLed(String name) {
        if (ctx.cluster() == null) {
            return;
        }
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(LEAD_WAIT_MS);
        while (System.nanoTime() - deadline < 0) {
            Topic t = byName.get(name);
            if (t == null || led(t)) {
                return;
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        LOG.atWarn().addKeyValue("topic", name).log("topic {}: not every partition is led after {} ms", name,
            LEAD_WAIT_MS);
    }

    private boolean led(Topic t) {
        for (int p = 0; p < t.partitionCount(); p++) {
            Optional<PartitionLeader> l = ctx.cluster().view().liveLeader(t.name(), p);
            if (l.isEmpty() || !l.get().hasLeader()
                    || l.get().leader() == ctx.nodeId() && t.log(p) == null) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        synchronized (lock) {
            byName.clear();
            byId.clear();
        }
    }

    /** Kafka's BrokerTopicMetrics counters, which produce and fetch add to. */
    public io.kaas.broker.metrics.BrokerTopicStats stats() {
        return stats;
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
        return create(name, partitions, replicationFactor, configs, validateOnly, Requester.BROKER);
    }

    /** As {@link #create(String, int, int, Map, boolean)}, asked for by {@code by} (named in the log line). */
    public TopicRecord create(String name, int partitions, int replicationFactor, Map<String, String> configs,
                              boolean validateOnly, Requester by) {
        return create(name, partitions, replicationFactor, configs, validateOnly, by, PartitionMutations.NONE);
    }

    /** As above, the topic's partitions charged to {@code mutations} (validated or not) once it could be created. */
    public TopicRecord create(String name, int partitions, int replicationFactor, Map<String, String> configs,
                              boolean validateOnly, Requester by, PartitionMutations mutations) {
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
        TopicRecord created;
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
            mutations.charge(count);
            if (validateOnly) {
                return new TopicRecord(name, new UUID(0, 0), count, clean);
            }
            TopicRecord record = new TopicRecord(name, UUID.randomUUID(), count, clean);
            try {
                ctx.clusterStore().createTopic(record);
            } catch (TopicExistsException e) {
                throw new TopicException(Errors.TOPIC_ALREADY_EXISTS, e.getMessage());
            }
            put(new Topic(record, resolver.logConfig(record.configs())));
            LOG.atInfo().addKeyValue("topic", name).addKeyValue("topicId", record.topicId())
                    .addKeyValue("partitions", count).addKeyValue("configs", new TreeMap<>(clean))
                    .addKeyValue("principal", by.principal()).addKeyValue("client", by.client())
                    .log("Topic {} created with {} partitions and configs {} by {}", name, count, new TreeMap<>(clean), by);
            created = record;
        }
        awaitLed(name);
        return created;
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
        // Kafka's error code; the reason is kaas's own: however many brokers run, a partition has one copy (the
        // shared volume is the durable copy), so no count of brokers would make this reachable.
        throw new TopicException(Errors.INVALID_REPLICATION_FACTOR, "Unable to replicate the partition "
                + replicationFactor + " time(s): kaas keeps one copy of each partition on its shared volume, so the "
                + "replication factor is 1 (or -1 for the default)");
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
        return delete(name, Requester.BROKER);
    }

    /** As {@link #delete(String)}, asked for by {@code by} (named in the log line). */
    public TopicRecord delete(String name, Requester by) {
        return delete(name, by, PartitionMutations.NONE);
    }

    /** As {@link #delete(String, Requester)}, the topic's partitions charged to {@code mutations} first. */
    public TopicRecord delete(String name, Requester by, PartitionMutations mutations) {
        if (!ctx.config().deleteTopicEnable()) {
            throw new TopicException(Errors.TOPIC_DELETION_DISABLED,
                    "Topic deletion is disabled (delete.topic.enable=false).");
        }
        Topic topic;
        synchronized (lock) {
            topic = byName.get(name);
            if (topic == null) {
                throw new TopicException(Errors.UNKNOWN_TOPIC_OR_PARTITION,
                        "This server does not host this topic-partition.");
            }
            mutations.charge(topic.partitionCount());
            try {
                ctx.clusterStore().deleteTopic(name);
            } catch (UnknownTopicException e) {
                // already gone from the store (deleted by another broker): what was asked
            }
            byName.remove(name, topic);
            byId.remove(topic.id());
        }
        // The owners (this broker included) delete the partitions' data when they see the topic gone.
        if (ctx.cluster() != null) {
            ctx.cluster().ownership().reconcileNow(LEAD_WAIT_MS);
        }
        for (int p = 0; p < topic.partitionCount(); p++) {
            watchers.appended(new PartitionKey(topic.name(), topic.id(), p));
        }
        LOG.atInfo().addKeyValue("topic", name).addKeyValue("topicId", topic.id())
                .addKeyValue("principal", by.principal()).addKeyValue("client", by.client())
                .log("Topic {} deleted by {}", name, by);
        return topic.record();
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
        return createPartitions(name, count, validateOnly, PartitionMutations.NONE);
    }

    /** As above, the partitions added charged to {@code mutations} (validated or not) once they could be. */
    public TopicRecord createPartitions(String name, int count, boolean validateOnly, PartitionMutations mutations) {
        TopicRecord record;
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
            mutations.charge(count - current);
            if (validateOnly) {
                return topic.record().withPartitions(count);
            }
            record = ctx.clusterStore().updatePartitionCount(name, count);
            put(topic.withRecord(record, topic.logConfig()));
        }
        awaitLed(name);
        return record;
    }

    /**
     * Replaces a topic's config overrides (validated first).
     *
     * @throws TopicException UNKNOWN_TOPIC_OR_PARTITION or INVALID_CONFIG
     */
    public TopicRecord replaceConfigs(String name, Map<String, String> overrides, boolean validateOnly) {
        return replaceConfigs(name, overrides, validateOnly, Requester.BROKER);
    }

    /** As {@link #replaceConfigs(String, Map, boolean)}, asked for by {@code by} (named in the log line). */
    public TopicRecord replaceConfigs(String name, Map<String, String> overrides, boolean validateOnly, Requester by) {
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
            put(topic.withRecord(record, logConfig));
            Map<String, String> changed = changes(topic.record().configs(), record.configs());
            if (!changed.isEmpty()) {
                LOG.atInfo().addKeyValue("topic", name).addKeyValue("changes", changed)
                        .addKeyValue("principal", by.principal()).addKeyValue("client", by.client())
                        .log("Configs of topic {} changed by {}: {}", name, by, changed);
            }
            return record;
        }
    }

    /**
     * The keys whose override changed from {@code before} to {@code after}, with the new value ({@code (default)} for
     * a removed override). Topic configs hold no sensitive value (Kafka marks none), so values are shown.
     */
    static Map<String, String> changes(Map<String, String> before, Map<String, String> after) {
        Map<String, String> changed = new TreeMap<>();
        after.forEach((k, v) -> {
            if (!v.equals(before.get(k))) {
                changed.put(k, v);
            }
        });
        before.keySet().forEach(k -> {
            if (!after.containsKey(k)) {
                changed.put(k, "(default)");
            }
        });
        return changed;
    }

    private Topic requireTopic(String name) {
        Topic topic = byName.get(name);
        if (topic == null) {
            throw new TopicException(Errors.UNKNOWN_TOPIC_OR_PARTITION,
                    "This server does not host this topic-partition.");
        }
        return topic;
    }

}
