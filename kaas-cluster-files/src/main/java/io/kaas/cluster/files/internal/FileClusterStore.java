package io.kaas.cluster.files.internal;

import io.kaas.api.auth.AclBinding;
import io.kaas.api.cluster.BrokerRegistration;
import io.kaas.api.cluster.ClientQuotaEntity;
import io.kaas.api.cluster.ClusterListener;
import io.kaas.api.cluster.ClusterSession;
import io.kaas.api.cluster.ClusterStateException;
import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.CommittedOffset;
import io.kaas.api.cluster.ControllerListener;
import io.kaas.api.cluster.ControllerTerm;
import io.kaas.api.cluster.LiveBroker;
import io.kaas.api.cluster.ScramCredentialRecord;
import io.kaas.api.cluster.ScramCredentialRef;
import io.kaas.api.cluster.TopicAssignment;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.api.cluster.TopicExistsException;
import io.kaas.api.cluster.TopicNameRules;
import io.kaas.api.cluster.TopicRecord;
import io.kaas.api.cluster.UnknownTopicException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.LinkedHashSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cluster state as JSON files under one {@code __cluster/} directory:
 * <pre>
 * cluster.json            {clusterId}
 * producer-ids.json       {nextBlockStart}
 * topics/&lt;name&gt;.json      {name, topicId, partitions, configs}
 * groups/&lt;encoded id&gt;.json {groupId, offsets: [{topic, partition, offset, leaderEpoch, metadata, …}]}
 * group-configs/&lt;encoded id&gt;.json {groupId, configs}
 * scram-credentials.json  {credentials: [{user, mechanism, salt, storedKey, serverKey, iterations}]}
 * acls.json               {acls: [{resourceType, name, patternType, principal, host, operation, permission}]}
 * client-quotas.json, broker-configs.json   client quotas and dynamic broker configs ({@link DynamicConfigFiles})
 * epochs.json, assignments.json, reassignments.json   the coordination state ({@link FileCoordination})
 * broker.lock             {nodeId, host, pid, since}: the broker holding the data directory ({@link DirectoryLock})
 * </pre>
 * The store takes the data directory for itself at open and holds it until close: a second store over it, in this
 * process or another, is refused. Everything is loaded at open; reads come from memory without locking. Mutations
 * are serialized by {@link StoreLock} and update memory only once the file is durably written; listeners are told
 * after ({@link ListenerDispatch}).
 */
public final class FileClusterStore implements ClusterStateStore {
    private static final Logger LOG = LoggerFactory.getLogger(FileClusterStore.class);
    private static final String JSON = ".json";

    private final Path dir;
    private final Path topicsDir;
    private final StoreLock lock;
    private final ListenerDispatch events;
    private final FileCoordination coordination;
    private final String clusterId;
    private final ConcurrentMap<String, TopicRecord> byName;
    private final ConcurrentMap<UUID, TopicRecord> byId;
    private final Path groupsDir;
    /** Committed offsets by group id; each value immutable and never empty. Replaced under the lock. */
    private final ConcurrentMap<String, Map<TopicPartitionRef, CommittedOffset>> groups;
    private final Path groupConfigsDir;
    /** Config overrides by group id; each value immutable and never empty. Replaced under the lock. */
    private final ConcurrentMap<String, Map<String, String>> groupConfigs;
    private final ScramCredentialFiles scramCredentials;
    private long nextBlockStart; // guarded by lock
    /** The ACL bindings, immutable; replaced under the lock once {@link AclFiles#FILE} is written. */
    private volatile Set<AclBinding> acls = Set.of();
    /** Client quotas, immutable (values too); replaced under the lock once the file is written. */
    private volatile Map<ClientQuotaEntity, Map<String, Double>> clientQuotas = Map.of();
    /** Dynamic broker configs by broker id (empty: the cluster default), immutable; replaced under the lock. */
    private volatile Map<OptionalInt, Map<String, String>> brokerConfigs = Map.of();

    private FileClusterStore(Path dir, StoreLock lock, ListenerDispatch events, FileCoordination coordination,
                             String clusterId, Map<String, TopicRecord> topics, ConcurrentMap<UUID, TopicRecord> byId,
                             long nextBlockStart, Map<String, Map<TopicPartitionRef, CommittedOffset>> groups,
                             Map<String, Map<String, String>> groupConfigs,
                             ScramCredentialFiles scramCredentials) {
        this.dir = dir;
        this.scramCredentials = scramCredentials;
        this.groupConfigsDir = dir.resolve(GroupConfigFiles.DIR);
        this.groupConfigs = new ConcurrentHashMap<>(groupConfigs);
        this.topicsDir = dir.resolve("topics");
        this.groupsDir = dir.resolve("groups");
        this.groups = new ConcurrentHashMap<>();
        groups.forEach((id, offsets) -> this.groups.put(id, Map.copyOf(offsets)));
        this.lock = lock;
        this.events = events;
        this.coordination = coordination;
        this.clusterId = clusterId;
        this.byName = new ConcurrentHashMap<>(topics);
        this.byId = byId;
        this.nextBlockStart = nextBlockStart;
    }

    /**
     * Opens the store in {@code dir} (created if missing) for broker {@code nodeId}, taking the data directory for it,
     * and creates the cluster id on first use.
     *
     * @throws ClusterStateException in one line naming the holder if another broker holds the data directory; naming
     *                               the file if a state file is unreadable or damaged
     */
    public static FileClusterStore open(Path dir, int nodeId) throws IOException {
        Path topicsDir = dir.resolve("topics");
        AtomicFiles.createDirectories(dir);
        StoreLock lock = StoreLock.open(dir, LockHolder.thisProcess(nodeId));
        try {
            AtomicFiles.createDirectories(topicsDir);
            AtomicFiles.createDirectories(dir.resolve("groups"));
            AtomicFiles.createDirectories(dir.resolve(GroupConfigFiles.DIR));
            String clusterId = loadOrCreateClusterId(dir.resolve("cluster.json"));
            long nextBlockStart = readNextBlockStart(dir.resolve("producer-ids.json"));
            warnAboutTempFiles(dir);
            Map<String, TopicRecord> topics = TopicFiles.loadAll(topicsDir);
            Map<String, Map<TopicPartitionRef, CommittedOffset>> groups = GroupFiles.loadAll(dir.resolve("groups"));
            Map<String, Map<String, String>> groupConfigs = GroupConfigFiles.loadAll(dir.resolve(GroupConfigFiles.DIR));
            ScramCredentialFiles scram = ScramCredentialFiles.open(dir);
            LOG.atDebug().setMessage("File cluster store {} holds SCRAM credentials of {} users").addArgument(dir)
                    .addArgument(scram.userCount()).addKeyValue("scramUsers", scram.userCount()).log();
            Set<AclBinding> acls = AclFiles.load(dir.resolve(AclFiles.FILE));
            Map<ClientQuotaEntity, Map<String, Double>> clientQuotas =
                    Map.copyOf(DynamicConfigFiles.loadQuotas(dir.resolve(DynamicConfigFiles.QUOTAS_FILE)));
            Map<OptionalInt, Map<String, String>> brokerConfigs =
                    Map.copyOf(DynamicConfigFiles.loadBrokerConfigs(dir.resolve(DynamicConfigFiles.BROKER_CONFIGS_FILE)));
            LOG.atInfo().setMessage("Opened file cluster store {}: cluster id {}, {} topics, {} groups with offsets, "
                            + "{} groups with configs, {} ACLs")
                    .addArgument(dir).addArgument(clusterId).addArgument(topics.size()).addArgument(groups.size())
                    .addArgument(groupConfigs.size()).addArgument(acls.size())
                    .addKeyValue("dir", dir).addKeyValue("clusterId", clusterId)
                    .addKeyValue("topics", topics.size()).addKeyValue("groups", groups.size())
                    .addKeyValue("groupConfigs", groupConfigs.size()).addKeyValue("acls", acls.size()).log();
            ConcurrentMap<UUID, TopicRecord> byId = new ConcurrentHashMap<>();
            topics.values().forEach(t -> byId.put(t.topicId(), t));
            ListenerDispatch events = new ListenerDispatch(dir);
            FileCoordination coordination = FileCoordination.load(dir, nodeId, lock, events, byId);
            FileClusterStore store = new FileClusterStore(dir, lock, events, coordination, clusterId, topics, byId,
                    nextBlockStart, groups, groupConfigs, scram);
            store.acls = acls;
            store.clientQuotas = clientQuotas;
            store.brokerConfigs = brokerConfigs;
            return store;
        } catch (IOException | RuntimeException e) {
            closeQuietly(lock, e);
            throw e;
        }
    }

    @Override
    public String clusterId() {
        return clusterId;
    }

    @Override
    public Collection<TopicRecord> topics() {
        return List.copyOf(byName.values());
    }

    @Override
    public Optional<TopicRecord> topic(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    @Override
    public Optional<TopicRecord> topic(UUID topicId) {
        return Optional.ofNullable(byId.get(topicId));
    }

    /** @throws IllegalArgumentException if the name is not a legal Kafka topic name or the id is in use */
    @Override
    public void createTopic(TopicRecord topic) {
        String invalid = TopicNameRules.invalidReason(topic.name());
        if (invalid != null) {
            throw new IllegalArgumentException(invalid);
        }
        mutate("create topic '" + topic.name() + "'", () -> {
            Path file = topicFile(topic.name());
            // The file check catches a topic another broker created since this store was opened.
            if (byName.containsKey(topic.name()) || Files.exists(file)) {
                throw new TopicExistsException(topic.name());
            }
            if (byId.containsKey(topic.topicId())) {
                throw new IllegalArgumentException("Topic id " + topic.topicId() + " is already used by topic '"
                        + byId.get(topic.topicId()).name() + "'");
            }
            AtomicFiles.write(file, StateJson.topic(topic));
            byId.put(topic.topicId(), topic);
            byName.put(topic.name(), topic);
            return null;
        });
        events.tell("topicsChanged", ClusterListener::topicsChanged);
    }

    /** Removes the topic's file, then its assignment and move requests. */
    @Override
    public void deleteTopic(String name) {
        mutate("delete topic '" + name + "'", () -> {
            TopicRecord topic = existing(name);
            AtomicFiles.delete(topicFile(name));
            byName.remove(name);
            byId.remove(topic.topicId());
            events.tell("topicsChanged", ClusterListener::topicsChanged);
            coordination.topicDeleted(topic);
            return null;
        });
    }

    @Override
    public TopicRecord updateTopicConfigs(String name, Map<String, String> configs) {
        Objects.requireNonNull(configs, "configs");
        TopicRecord updated = mutate("update the configs of topic '" + name + "'",
                () -> replace(existing(name).withConfigs(configs)));
        events.tell("topicsChanged", ClusterListener::topicsChanged);
        return updated;
    }

    /**
     * Raises the partition count; asking for the current count changes nothing.
     *
     * @throws IllegalArgumentException if {@code partitions} is below the current count
     */
    @Override
    public TopicRecord updatePartitionCount(String name, int partitions) {
        TopicRecord updated = mutate("update the partition count of topic '" + name + "'", () -> {
            TopicRecord topic = existing(name);
            if (partitions < topic.partitions()) {
                throw new IllegalArgumentException("Topic '" + name + "' has " + topic.partitions()
                        + " partitions; the count can only grow, got " + partitions);
            }
            return partitions == topic.partitions() ? topic : replace(topic.withPartitions(partitions));
        });
        events.tell("topicsChanged", ClusterListener::topicsChanged); // spurious when the count was already that
        return updated;
    }

    /**
     * Re-reads {@code producer-ids.json} under the cross-broker lock, so blocks never overlap between
     * brokers, then persists the new next start before returning the block.
     *
     * @throws IllegalArgumentException if {@code size} is not positive
     */
    @Override
    public long allocateProducerIdBlock(int size) {
        if (size <= 0) {
            throw new IllegalArgumentException("a producer-id block needs a positive size, got " + size);
        }
        return mutate("allocate a producer-id block", () -> {
            Path file = dir.resolve("producer-ids.json");
            long start = Math.max(nextBlockStart, readNextBlockStart(file));
            long next;
            try {
                next = Math.addExact(start, size);
            } catch (ArithmeticException e) {
                throw new ClusterStateException("Producer ids are exhausted in " + file, e);
            }
            AtomicFiles.write(file, StateJson.producerIds(next));
            nextBlockStart = next;
            return start;
        });
    }

    /** Rewrites the group's file (all its offsets, old and new) atomically, then updates memory. */
    @Override
    public void commitOffsets(String groupId, Map<TopicPartitionRef, CommittedOffset> offsets) {
        Objects.requireNonNull(groupId, "groupId");
        Objects.requireNonNull(offsets, "offsets");
        if (offsets.isEmpty()) {
            return;
        }
        mutate("commit offsets of group '" + groupId + "'", () -> {
            Map<TopicPartitionRef, CommittedOffset> updated = new HashMap<>(groups.getOrDefault(groupId, Map.of()));
            updated.putAll(offsets);
            writeGroup(groupId, updated);
            return null;
        });
    }

    @Override
    public Map<TopicPartitionRef, CommittedOffset> committedOffsets(String groupId) {
        return groups.getOrDefault(groupId, Map.of());
    }

    @Override
    public Collection<String> groupsWithOffsets() {
        return List.copyOf(groups.keySet());
    }

    @Override
    public void deleteGroup(String groupId) {
        mutate("delete group '" + groupId + "'", () -> {
            AtomicFiles.delete(GroupFiles.file(groupsDir, groupId));
            groups.remove(groupId);
            return null;
        });
    }

    @Override
    public void deleteOffsets(String groupId, Collection<TopicPartitionRef> partitions) {
        Map<TopicPartitionRef, CommittedOffset> current = groups.get(groupId);
        if (current == null || partitions.stream().noneMatch(current::containsKey)) {
            return;
        }
        mutate("delete offsets of group '" + groupId + "'", () -> {
            Map<TopicPartitionRef, CommittedOffset> updated = new HashMap<>(groups.getOrDefault(groupId, Map.of()));
            updated.keySet().removeAll(partitions);
            writeGroup(groupId, updated);
            return null;
        });
    }

    @Override
    public Map<String, String> groupConfigs(String groupId) {
        return groupConfigs.getOrDefault(groupId, Map.of());
    }

    /** Rewrites (or, when empty, deletes) the group's config file atomically, then updates memory. */
    @Override
    public void updateGroupConfigs(String groupId, Map<String, String> configs) {
        Objects.requireNonNull(groupId, "groupId");
        Objects.requireNonNull(configs, "configs");
        if (groupId.isEmpty()) {
            throw new IllegalArgumentException("a group config needs a group id; the empty id is Kafka's default group");
        }
        Map<String, String> copy = Map.copyOf(configs);
        mutate("update the configs of group '" + groupId + "'", () -> {
            Path file = GroupConfigFiles.file(groupConfigsDir, groupId);
            if (copy.isEmpty()) {
                AtomicFiles.delete(file);
                groupConfigs.remove(groupId);
            } else {
                AtomicFiles.write(file, StateJson.groupConfigs(groupId, copy));
                groupConfigs.put(groupId, copy);
            }
            return null;
        });
        events.tell("groupConfigsChanged", ClusterListener::groupConfigsChanged);
    }

    @Override
    public Collection<String> groupsWithConfigs() {
        return List.copyOf(groupConfigs.keySet());
    }

    @Override
    public Collection<ScramCredentialRecord> scramCredentials() {
        return scramCredentials.all();
    }

    @Override
    public Collection<ScramCredentialRecord> scramCredentials(String user) {
        Objects.requireNonNull(user, "user");
        return scramCredentials.ofUser(user);
    }

    /** Rewrites {@code scram-credentials.json} (every user's) atomically, then updates memory. */
    @Override
    public void alterScramCredentials(Collection<ScramCredentialRecord> upserts, Collection<ScramCredentialRef> deletions) {
        List<ScramCredentialRecord> up = List.copyOf(upserts);
        List<ScramCredentialRef> down = List.copyOf(deletions);
        ScramCredentialFiles.check(up, down);
        if (up.isEmpty() && down.isEmpty()) {
            return;
        }
        mutate("alter the SCRAM credentials of " + (up.size() + down.size()) + " user mechanisms", () -> {
            scramCredentials.alter(up, down);
            return null;
        });
        events.tell("scramCredentialsChanged", ClusterListener::scramCredentialsChanged);
    }

    @Override
    public Collection<AclBinding> acls() {
        return List.copyOf(acls);
    }

    /** Rewrites {@link AclFiles#FILE} with the union atomically (nothing when all are stored), then memory. */
    @Override
    public void addAcls(Collection<AclBinding> bindings) {
        List<AclBinding> added = List.copyOf(bindings);
        boolean changed = mutate("add " + added.size() + " ACLs", () -> {
            Set<AclBinding> next = new LinkedHashSet<>(acls);
            if (!next.addAll(added)) {
                return false;
            }
            AclFiles.store(dir.resolve(AclFiles.FILE), next);
            acls = Set.copyOf(next);
            return true;
        });
        if (changed) {
            events.tell("aclsChanged", ClusterListener::aclsChanged);
        }
    }

    /** Rewrites {@link AclFiles#FILE} without the bindings atomically (nothing when none is stored), then memory. */
    @Override
    public void removeAcls(Collection<AclBinding> bindings) {
        List<AclBinding> removed = List.copyOf(bindings);
        boolean changed = mutate("remove " + removed.size() + " ACLs", () -> {
            Set<AclBinding> next = new LinkedHashSet<>(acls);
            if (!next.removeAll(removed)) {
                return false;
            }
            AclFiles.store(dir.resolve(AclFiles.FILE), next);
            acls = Set.copyOf(next);
            return true;
        });
        if (changed) {
            events.tell("aclsChanged", ClusterListener::aclsChanged);
        }
    }

    @Override
    public Map<ClientQuotaEntity, Map<String, Double>> clientQuotas() {
        return clientQuotas;
    }

    @Override
    public void alterClientQuotas(Map<ClientQuotaEntity, Map<String, Optional<Double>>> changes) {
        Map<ClientQuotaEntity, Map<String, Optional<Double>>> copy = Map.copyOf(changes);
        if (copy.isEmpty()) {
            return;
        }
        mutate("alter the client quotas of " + copy.size() + " entities", () -> {
            Map<ClientQuotaEntity, Map<String, Double>> next = new HashMap<>(clientQuotas);
            copy.forEach((entity, keys) -> {
                Map<String, Double> values = new HashMap<>(next.getOrDefault(entity, Map.of()));
                keys.forEach((key, value) -> {
                    if (value.isPresent()) {
                        values.put(key, value.get());
                    } else {
                        values.remove(key);
                    }
                });
                if (values.isEmpty()) {
                    next.remove(entity);
                } else {
                    next.put(entity, Map.copyOf(values));
                }
            });
            DynamicConfigFiles.storeQuotas(dir.resolve(DynamicConfigFiles.QUOTAS_FILE), next);
            clientQuotas = Map.copyOf(next);
            return null;
        });
        events.tell("clientQuotasChanged", ClusterListener::clientQuotasChanged);
    }

    @Override
    public Map<String, String> brokerConfigs(OptionalInt brokerId) {
        return brokerConfigs.getOrDefault(Objects.requireNonNull(brokerId, "brokerId"), Map.of());
    }

    @Override
    public void updateBrokerConfigs(OptionalInt brokerId, Map<String, String> configs) {
        Objects.requireNonNull(brokerId, "brokerId");
        Map<String, String> copy = Map.copyOf(configs);
        String whose = brokerId.isPresent() ? "broker " + brokerId.getAsInt() : "the cluster default";
        mutate("update the dynamic configs of " + whose, () -> {
            Map<OptionalInt, Map<String, String>> next = new HashMap<>(brokerConfigs);
            if (copy.isEmpty()) {
                next.remove(brokerId);
            } else {
                next.put(brokerId, copy);
            }
            DynamicConfigFiles.storeBrokerConfigs(dir.resolve(DynamicConfigFiles.BROKER_CONFIGS_FILE), next);
            brokerConfigs = Map.copyOf(next);
            return null;
        });
        events.tell("brokerConfigsChanged", ClusterListener::brokerConfigsChanged);
    }

    /** Called under the lock: writes (or, when empty, deletes) the group's file, then memory. */
    private void writeGroup(String groupId, Map<TopicPartitionRef, CommittedOffset> offsets) throws IOException {
        Path file = GroupFiles.file(groupsDir, groupId);
        if (offsets.isEmpty()) {
            AtomicFiles.delete(file);
            groups.remove(groupId);
            return;
        }
        AtomicFiles.write(file, StateJson.groupOffsets(groupId, offsets));
        groups.put(groupId, Map.copyOf(offsets));
    }

    // ---- coordination: one broker, always the controller ({@link FileCoordination}) ----

    /** Connected, with a lease that holds until close; no timeout. */
    @Override
    public ClusterSession session() {
        return coordination.session();
    }

    /**
     * Registers the store's one broker under a broker epoch above every earlier one of this data directory.
     *
     * @throws IllegalStateException if a broker is registered already
     */
    @Override
    public LiveBroker registerBroker(BrokerRegistration registration) {
        return coordination.registerBroker(registration);
    }

    @Override
    public Map<Integer, LiveBroker> liveBrokers() {
        return coordination.liveBrokers();
    }

    /** Elects this broker at once under a controller epoch above every earlier one; the term ends at close. */
    @Override
    public void electController(ControllerListener listener) {
        coordination.electController(Objects.requireNonNull(listener, "listener"));
    }

    @Override
    public Optional<ControllerTerm> controller() {
        return coordination.controller();
    }

    @Override
    public Map<UUID, TopicAssignment> assignments() {
        return coordination.assignments();
    }

    /**
     * Rewrites {@code assignments.json} with every change, each at its stored version + 1 (0 for a new one).
     * A change must name as many partitions as the topic has (else a conflict: the topic changed since it was read).
     *
     * @throws IllegalArgumentException if a topic is named twice or a change lowers a partition's leader epoch
     */
    @Override
    public void updateAssignments(ControllerTerm term, Collection<TopicAssignment> changes) {
        coordination.updateAssignments(Objects.requireNonNull(term, "term"), changes);
    }

    @Override
    public Map<TopicPartitionRef, Integer> reassignmentRequests() {
        return coordination.reassignmentRequests();
    }

    /** @throws IllegalArgumentException if a target is below -1 */
    @Override
    public void alterReassignmentRequests(Map<TopicPartitionRef, Integer> targets) {
        coordination.alterReassignmentRequests(targets);
    }

    @Override
    public void addListener(ClusterListener listener) {
        events.add(listener);
    }

    @Override
    public void removeListener(ClusterListener listener) {
        events.remove(listener);
    }

    /**
     * Idempotent. Waits for a mutation in progress to finish, releases the data directory, then tells the controller
     * listener its term ended and the listeners the session is closed, and waits (bounded) for them.
     */
    @Override
    public void close() {
        try {
            lock.close();
        } catch (IOException e) {
            LOG.atWarn().setMessage("Could not release the lock file of {}").addArgument(dir).setCause(e).log();
        }
        coordination.close();
        events.close();
    }

    private <T> T mutate(String what, StoreLock.Mutation<T> mutation) {
        return lock.mutate(what, mutation);
    }

    private TopicRecord existing(String name) {
        TopicRecord topic = byName.get(name);
        if (topic == null) {
            throw new UnknownTopicException(name);
        }
        return topic;
    }

    private TopicRecord replace(TopicRecord updated) throws IOException {
        AtomicFiles.write(topicFile(updated.name()), StateJson.topic(updated));
        byId.put(updated.topicId(), updated);
        byName.put(updated.name(), updated);
        return updated;
    }

    private Path topicFile(String name) {
        return topicsDir.resolve(name + JSON);
    }

    private static String loadOrCreateClusterId(Path file) throws IOException {
        if (Files.exists(file)) {
            try {
                return StateJson.readClusterId(Files.readAllBytes(file));
            } catch (IOException e) {
                throw new ClusterStateException("Cannot read the cluster id from " + file + ": " + e.getMessage(), e);
            }
        }
        String id = KafkaUuids.toText(KafkaUuids.random());
        AtomicFiles.write(file, StateJson.cluster(id));
        LOG.atInfo().setMessage("Created cluster id {} in {}").addArgument(id).addArgument(file)
                .addKeyValue("clusterId", id).log();
        return id;
    }

    /** 0 when the file does not exist yet. */
    private static long readNextBlockStart(Path file) throws IOException {
        if (!Files.exists(file)) {
            return 0;
        }
        try {
            return StateJson.readNextBlockStart(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new ClusterStateException("Cannot read the next producer id from " + file + ": " + e.getMessage(), e);
        }
    }

    private static void warnAboutTempFiles(Path dir) throws IOException {
        try (var entries = Files.list(dir)) {
            entries.filter(AtomicFiles::isTemp).forEach(TopicFiles::warnLeftover);
        }
    }

    private static void closeQuietly(StoreLock lock, Exception failure) {
        try {
            lock.close();
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }
}
