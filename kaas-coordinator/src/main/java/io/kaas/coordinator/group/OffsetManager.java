package io.kaas.coordinator.group;

import io.kaas.coordinator.CoordinatorTimer;
import io.kaas.coordinator.internal.NotCoordinatorException;
import io.kaas.wire.protocol.Errors;
import io.kaas.api.cluster.ClusterStateException;
import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.CommittedOffset;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.api.cluster.TopicRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Committed offsets: OffsetCommit (answered only once they are durable in {@code __consumer_offsets}), OffsetFetch,
 * OffsetDelete and {@code offsets.retention.minutes} expiry, with Kafka's validation against the
 * group's membership. Thread-safe; store calls for a group are made under the group's monitor, so
 * commits, deletions and expiry of one group never interleave.
 */
public final class OffsetManager {
    private static final Logger LOG = LoggerFactory.getLogger(OffsetManager.class);

    private final GroupCoordinator coordinator;
    private final ClusterStateStore store;
    private final OffsetStore offsetStore;
    private final GroupCoordinatorConfig config;
    private final CoordinatorTimer timer;
    /**
     * Transactional offsets not yet committed: group → producer id → partition → offset (TxnOffsetCommit). Guarded
     * by itself.
     */
    private final Map<String, Map<Long, Map<TopicPartitionRef, Commit>>> pendingTxn = new java.util.HashMap<>();

    OffsetManager(GroupCoordinator coordinator, ClusterStateStore store, OffsetStore offsetStore,
                  GroupCoordinatorConfig config, CoordinatorTimer timer) {
        this.coordinator = coordinator;
        this.store = store;
        this.offsetStore = offsetStore;
        this.config = config;
        this.timer = timer;
    }

    /** One partition of an OffsetCommit request. */
    public record Commit(TopicPartitionRef partition, long offset, int leaderEpoch, String metadata) {
    }

    /**
     * One partition of an OffsetFetch answer; {@code offset} is null when nothing is committed (or the partition
     * has an error: UNSTABLE_OFFSET_COMMIT while a transactional offset is pending and the fetch requires stable
     * offsets).
     */
    public record Fetched(TopicPartitionRef partition, CommittedOffset offset, short errorCode) {
        public Fetched(TopicPartitionRef partition, CommittedOffset offset) {
            this(partition, offset, Errors.NONE);
        }
    }

    /** An OffsetFetch answer for one group: a group-level error, or the partitions. */
    public record FetchResult(short errorCode, List<Fetched> partitions) {
    }

    /**
     * OffsetCommit. Blocks until the store has made the accepted offsets durable.
     *
     * @param generationId    the generation (or -1 for a group that only stores offsets)
     * @param retentionTimeMs v2-v4's retention time, or -1
     * @param version         the request version (v9+ answers GROUP_ID_NOT_FOUND for an unknown group)
     * @return the error of every partition, in request order
     */
    public Map<TopicPartitionRef, Short> commit(String groupId, String memberId, String groupInstanceId,
                                                int generationId, long retentionTimeMs, List<Commit> commits,
                                                short version) {
        Map<TopicPartitionRef, Short> errors = new LinkedHashMap<>();
        if (groupId == null) {
            commits.forEach(c -> errors.put(c.partition(), Errors.INVALID_GROUP_ID));
            return errors;
        }
        short notHere = coordinator.coordinatorError(groupId);
        if (notHere != Errors.NONE) {
            commits.forEach(c -> errors.put(c.partition(), notHere));
            return errors;
        }
        long now = timer.nowMs();
        Map<TopicPartitionRef, CommittedOffset> valid = new LinkedHashMap<>();
        for (Commit c : commits) {
            short error = validatePartition(c);
            errors.put(c.partition(), error);
            if (error == Errors.NONE) {
                long expire = retentionTimeMs < 0 ? -1 : now + retentionTimeMs;
                valid.put(c.partition(), new CommittedOffset(c.offset(), c.leaderEpoch(), c.metadata(), now, expire));
            }
        }
        if (valid.isEmpty()) {
            return errors;
        }
        ConsumerGroup consumer = coordinator.consumerGroup(groupId);
        if (consumer != null) {
            synchronized (consumer) {
                if (!consumer.dead) {
                    short error = validateConsumerCommit(consumer, memberId, generationId, version);
                    if (error == Errors.NONE) {
                        error = store(groupId, valid);
                    }
                    short e = error;
                    valid.keySet().forEach(tp -> errors.put(tp, e));
                    return errors;
                }
            }
        }
        ClassicGroup group = coordinator.group(groupId);
        if (group == null) {
            if (generationId >= 0) {
                short error = version >= 9 ? Errors.GROUP_ID_NOT_FOUND : Errors.ILLEGAL_GENERATION;
                valid.keySet().forEach(tp -> errors.put(tp, error));
                return errors;
            }
            group = coordinator.getOrCreate(groupId); // a "simple" group that only stores offsets
            if (group == null) { // a consumer group with members appeared meanwhile: only they may commit
                valid.keySet().forEach(tp -> errors.put(tp, Errors.UNKNOWN_MEMBER_ID));
                return errors;
            }
        }
        synchronized (group) {
            short error = validateCommit(group, memberId == null ? "" : memberId, groupInstanceId, generationId);
            if (error == Errors.NONE) {
                error = store(group.groupId, valid);
            }
            short e = error;
            valid.keySet().forEach(tp -> errors.put(tp, e));
        }
        return errors;
    }

    private short validatePartition(Commit c) {
        Optional<TopicRecord> topic = store.topic(c.partition().topic());
        if (topic.isEmpty() || c.partition().partition() >= topic.get().partitions()) {
            return Errors.UNKNOWN_TOPIC_OR_PARTITION;
        }
        if (c.metadata() != null && c.metadata().getBytes(StandardCharsets.UTF_8).length > config.offsetMetadataMaxBytes()) {
            return Errors.OFFSET_METADATA_TOO_LARGE;
        }
        return Errors.NONE;
    }

    /** Kafka's ClassicGroup.validateOffsetCommit. Under the group's monitor. */
    private static short validateCommit(ClassicGroup group, String memberId, String groupInstanceId, int generationId) {
        if (group.is(GroupState.DEAD)) {
            return Errors.COORDINATOR_NOT_AVAILABLE;
        }
        if (generationId < 0 && group.is(GroupState.EMPTY)) {
            return Errors.NONE; // admin client or a consumer that assigns partitions itself
        }
        if (generationId >= 0 || !memberId.isEmpty() || groupInstanceId != null) {
            short error = GroupCoordinator.validateMember(group, memberId, groupInstanceId, generationId);
            if (error != Errors.NONE) {
                return error;
            }
        } else if (!group.is(GroupState.EMPTY)) {
            return Errors.UNKNOWN_MEMBER_ID; // only members may commit to a group with members
        }
        if (group.is(GroupState.COMPLETING_REBALANCE)) {
            return Errors.REBALANCE_IN_PROGRESS;
        }
        return Errors.NONE;
    }

    /**
     * Kafka's ConsumerGroup.validateOffsetCommit: an empty group takes commits without a member epoch (admin
     * client, manual assignment); otherwise only a member, with OffsetCommit v9+ and its current member epoch.
     * Under the group's monitor.
     */
    private static short validateConsumerCommit(ConsumerGroup group, String memberId, int memberEpoch, short version) {
        if (memberEpoch < 0 && group.members.isEmpty()) {
            return Errors.NONE;
        }
        ConsumerMember member = memberId == null ? null : group.members.get(memberId);
        if (member == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        if (version < 9) {
            return Errors.UNSUPPORTED_VERSION;
        }
        return memberEpoch == member.memberEpoch ? Errors.NONE : Errors.STALE_MEMBER_EPOCH;
    }

    /**
     * Kafka's ConsumerGroup.validateOffsetFetch for OffsetFetch v9+ with a member id and epoch: no member
     * fields pass; otherwise the member must exist (UNKNOWN_MEMBER_ID) with that epoch (STALE_MEMBER_EPOCH).
     * Classic groups do not check.
     */
    public short validateFetch(String groupId, String memberId, int memberEpoch) {
        if (groupId == null || (memberId == null && memberEpoch < 0)) {
            return Errors.NONE;
        }
        ConsumerGroup group = coordinator.consumerGroup(groupId);
        if (group == null) {
            return Errors.NONE;
        }
        synchronized (group) {
            if (group.dead) {
                return Errors.NONE;
            }
            ConsumerMember member = memberId == null ? null : group.members.get(memberId);
            if (member == null) {
                return Errors.UNKNOWN_MEMBER_ID;
            }
            return member.memberEpoch == memberEpoch ? Errors.NONE : Errors.STALE_MEMBER_EPOCH;
        }
    }

    private short store(String groupId, Map<TopicPartitionRef, CommittedOffset> offsets) {
        try {
            offsetStore.commitOffsets(groupId, offsets);
            return Errors.NONE;
        } catch (NotCoordinatorException e) {
            LOG.atWarn().addKeyValue("group", groupId)
                    .log("Committed offsets of group {} not stored: {}", groupId, e.getMessage());
            return Errors.NOT_COORDINATOR;
        } catch (ClusterStateException e) {
            LOG.atError().setCause(e).addKeyValue("group", groupId)
                    .log("Could not store committed offsets of group {}", groupId);
            return Errors.COORDINATOR_NOT_AVAILABLE;
        }
    }

    /** OffsetFetch for one group without require_stable (v0-6, or v7+ with RequireStable false). */
    public FetchResult fetch(String groupId, Map<String, List<Integer>> topics) {
        return fetch(groupId, topics, false);
    }

    /**
     * OffsetFetch for one group.
     *
     * @param topics        the partitions asked for by topic, or null for every committed offset
     * @param requireStable v7+ {@code RequireStable}: a partition with a transactional offset still pending answers
     *                      UNSTABLE_OFFSET_COMMIT (and no offset), as Kafka
     */
    public FetchResult fetch(String groupId, Map<String, List<Integer>> topics, boolean requireStable) {
        FetchResult result = fetchCommitted(groupId, topics);
        if (!requireStable || result.errorCode() != Errors.NONE) {
            return result;
        }
        List<Fetched> out = new ArrayList<>(result.partitions().size());
        for (Fetched f : result.partitions()) {
            out.add(hasPendingTransactionalOffset(groupId, f.partition())
                    ? new Fetched(f.partition(), null, Errors.UNSTABLE_OFFSET_COMMIT) : f);
        }
        return new FetchResult(Errors.NONE, out);
    }

    private FetchResult fetchCommitted(String groupId, Map<String, List<Integer>> topics) {
        if (groupId == null) {
            return new FetchResult(Errors.INVALID_GROUP_ID, List.of());
        }
        short notHere = coordinator.coordinatorError(groupId);
        if (notHere != Errors.NONE) {
            return new FetchResult(notHere, List.of());
        }
        Map<TopicPartitionRef, CommittedOffset> committed = offsetStore.committedOffsets(groupId);
        List<Fetched> out = new ArrayList<>();
        if (topics == null) {
            committed.entrySet().stream()
                    .filter(e -> store.topic(e.getKey().topic()).isPresent())
                    .sorted(Map.Entry.comparingByKey(java.util.Comparator.comparing(TopicPartitionRef::topic)
                            .thenComparingInt(TopicPartitionRef::partition)))
                    .forEach(e -> out.add(new Fetched(e.getKey(), e.getValue())));
        } else {
            topics.forEach((topic, partitions) -> {
                for (int p : partitions) {
                    TopicPartitionRef tp = new TopicPartitionRef(topic, p);
                    out.add(new Fetched(tp, committed.get(tp)));
                }
            });
        }
        return new FetchResult(Errors.NONE, out);
    }

    // ---- transactional offsets (TxnOffsetCommit, KIP-98 / KIP-447) ----

    /**
     * Kafka's validation of a TxnOffsetCommit against the group: an unknown group with generation -1 becomes a
     * simple group (ILLEGAL_GENERATION with a generation); a classic group checks the member only when one is
     * named (Dead → COORDINATOR_NOT_AVAILABLE, FENCED_INSTANCE_ID, UNKNOWN_MEMBER_ID, ILLEGAL_GENERATION) and not
     * its state; a consumer group accepts no member epoch while it has no members, else checks the member
     * (UNKNOWN_MEMBER_ID) and its epoch (STALE_MEMBER_EPOCH). An unknown group named with a generation is
     * GROUP_ID_NOT_FOUND. As Kafka 4.4, TxnOffsetCommit answers these two as such from v6 (KIP-1319) and as
     * ILLEGAL_GENERATION below: the handler maps them by version.
     */
    public short validateTransactionalCommit(String groupId, String memberId, String groupInstanceId, int generationId) {
        if (groupId == null) {
            return Errors.INVALID_GROUP_ID;
        }
        short notHere = coordinator.coordinatorError(groupId);
        if (notHere != Errors.NONE) {
            return notHere;
        }
        String member = memberId == null ? "" : memberId;
        ConsumerGroup consumer = coordinator.consumerGroup(groupId);
        if (consumer != null) {
            synchronized (consumer) {
                if (!consumer.dead) {
                    if (generationId < 0 && consumer.members.isEmpty()) {
                        return Errors.NONE;
                    }
                    ConsumerMember m = consumer.members.get(member);
                    if (m == null) {
                        return Errors.UNKNOWN_MEMBER_ID;
                    }
                    return m.memberEpoch == generationId ? Errors.NONE : Errors.STALE_MEMBER_EPOCH;
                }
            }
        }
        ClassicGroup group = coordinator.group(groupId);
        if (group == null || group.is(GroupState.DEAD)) {
            if (generationId >= 0) {
                return Errors.GROUP_ID_NOT_FOUND;
            }
            group = coordinator.getOrCreate(groupId);
            if (group == null) {
                return Errors.UNKNOWN_MEMBER_ID;
            }
        }
        synchronized (group) {
            if (group.is(GroupState.DEAD)) {
                return Errors.COORDINATOR_NOT_AVAILABLE;
            }
            if (generationId < 0 && group.is(GroupState.EMPTY)) {
                return Errors.NONE;
            }
            if (generationId >= 0 || !member.isEmpty() || groupInstanceId != null) {
                return GroupCoordinator.validateMember(group, member, groupInstanceId, generationId);
            }
            return Errors.NONE;
        }
    }

    /** The per-partition checks of an offset commit: UNKNOWN_TOPIC_OR_PARTITION, OFFSET_METADATA_TOO_LARGE. */
    public short validateCommitPartition(Commit c) {
        return validatePartition(c);
    }

    /**
     * Stages transactional offsets of {@code producerId} for {@code groupId} until {@link #completeTransactional}:
     * OffsetFetch with require_stable answers UNSTABLE_OFFSET_COMMIT for them meanwhile. A later stage of the same
     * partition replaces the earlier.
     */
    public void stageTransactional(String groupId, long producerId, Map<TopicPartitionRef, Commit> offsets) {
        synchronized (pendingTxn) {
            pendingTxn.computeIfAbsent(groupId, g -> new java.util.HashMap<>())
                    .computeIfAbsent(producerId, p -> new LinkedHashMap<>()).putAll(offsets);
        }
    }

    /**
     * Ends the transactional offsets of {@code producerId} in {@code groupId}: on commit {@code offsets} are stored
     * durably (the path of OffsetCommit, under the group's monitor) before they are unstaged; on abort they are
     * dropped.
     *
     * @throws ClusterStateException if the store could not make them durable; they stay staged (retry)
     */
    public void completeTransactional(String groupId, long producerId, boolean commit,
                                      Map<TopicPartitionRef, Commit> offsets) {
        if (commit && !offsets.isEmpty()) {
            long now = timer.nowMs();
            Map<TopicPartitionRef, CommittedOffset> committed = new LinkedHashMap<>();
            Map<TopicPartitionRef, Commit> staged;
            synchronized (pendingTxn) {
                staged = Map.copyOf(pendingTxn.getOrDefault(groupId, Map.of()).getOrDefault(producerId, Map.of()));
            }
            // an offset deleted meanwhile (DeleteGroups, OffsetDelete) is not brought back, as Kafka
            offsets.forEach((tp, c) -> {
                if (staged.containsKey(tp)) {
                    committed.put(tp, new CommittedOffset(c.offset(), c.leaderEpoch(), c.metadata(), now, -1));
                }
            });
            Object monitor = groupMonitor(groupId);
            synchronized (monitor) {
                offsetStore.commitOffsets(groupId, committed);
            }
        }
        synchronized (pendingTxn) {
            Map<Long, Map<TopicPartitionRef, Commit>> byProducer = pendingTxn.get(groupId);
            if (byProducer != null) {
                byProducer.remove(producerId);
                if (byProducer.isEmpty()) {
                    pendingTxn.remove(groupId);
                }
            }
        }
    }

    /** The {@code __consumer_offsets} partition of {@code groupId} ({@code abs(hash) % partitions}, as Kafka). */
    public int partitionFor(String groupId) {
        return coordinator.partitionFor(groupId);
    }

    /**
     * TxnOffsetCommit whose transaction coordinator is another broker, as Kafka's group coordinator does it: the
     * offsets are appended to the group's {@code __consumer_offsets} partition as a transactional batch of the producer
     * (durable on return) and staged (OffsetFetch with require_stable answers UNSTABLE_OFFSET_COMMIT) until the
     * producer's marker reaches that partition ({@link #onMarker}): committed on COMMIT, dropped on ABORT. A broker that
     * takes the partition over finds them pending in the log. The caller validated the membership and partitions and
     * had the transaction coordinator verify the transaction.
     *
     * @return NONE once durable; NOT_COORDINATOR if the group's partition is not this broker's;
     *         COORDINATOR_NOT_AVAILABLE if the write failed
     */
    public short commitTransactionalInLog(String groupId, long producerId, short producerEpoch,
                                          Map<TopicPartitionRef, Commit> offsets) {
        short notHere = coordinator.coordinatorError(groupId);
        if (notHere != Errors.NONE) {
            return notHere;
        }
        long now = timer.nowMs();
        Map<TopicPartitionRef, CommittedOffset> values = new LinkedHashMap<>();
        offsets.forEach((tp, c) -> values.put(tp, new CommittedOffset(c.offset(), c.leaderEpoch(), c.metadata(), now, -1)));
        try {
            offsetStore.appendTransactional(groupId, producerId, producerEpoch, values);
        } catch (NotCoordinatorException e) {
            LOG.atWarn().addKeyValue("group", groupId).addKeyValue("producerId", producerId)
                    .log("Transactional offsets of group {} (producer {}) not stored: {}", groupId, producerId,
                            e.getMessage());
            return Errors.NOT_COORDINATOR;
        } catch (ClusterStateException e) {
            LOG.atError().setCause(e).addKeyValue("group", groupId).addKeyValue("producerId", producerId)
                    .log("Could not store the transactional offsets of group {} (producer {})", groupId, producerId);
            return Errors.COORDINATOR_NOT_AVAILABLE;
        }
        stageTransactional(groupId, producerId, offsets);
        return Errors.NONE;
    }

    /**
     * The COMMIT ({@code commit}) or ABORT marker of {@code producerId} is durable in {@code __consumer_offsets}
     * partition {@code partition}: the transactional offsets that producer wrote there ({@link
     * #commitTransactionalInLog}) are committed (stored as offset commits) or dropped. Offsets staged by this broker's
     * own transaction coordinator are its to complete, not the marker's.
     *
     * @throws ClusterStateException if the committed offsets could not be stored; they stay pending (the coordinator
     *                               sends the marker again)
     */
    public void onMarker(int partition, long producerId, boolean commit) {
        Map<String, Map<TopicPartitionRef, CommittedOffset>> ended = offsetStore.takeTransactional(partition, producerId);
        for (Map.Entry<String, Map<TopicPartitionRef, CommittedOffset>> g : ended.entrySet()) {
            Map<TopicPartitionRef, Commit> commits = new LinkedHashMap<>();
            g.getValue().forEach((tp, o) -> commits.put(tp, new Commit(tp, o.offset(), o.leaderEpoch(), o.metadata())));
            try {
                completeTransactional(g.getKey(), producerId, commit, commits);
            } catch (RuntimeException e) {
                offsetStore.restoreTransactional(partition, producerId, g.getKey(), g.getValue());
                throw e;
            }
            LOG.atInfo().addKeyValue("group", g.getKey()).addKeyValue("producerId", producerId)
                    .log("{} the transactional offsets of group {} for {} partition(s) (producer {})",
                            commit ? "Committed" : "Aborted", g.getKey(), commits.size(), producerId);
        }
    }

    /**
     * Drops the staged transactional offsets of {@code partitions} of {@code groupId} (all of them if null), as
     * Kafka's DeleteGroups and OffsetDelete delete pending transactional offsets too: the transaction's commit then
     * stores nothing for them.
     */
    void dropPendingTransactional(String groupId, java.util.Collection<TopicPartitionRef> partitions) {
        synchronized (pendingTxn) {
            Map<Long, Map<TopicPartitionRef, Commit>> byProducer = pendingTxn.get(groupId);
            if (byProducer == null) {
                return;
            }
            if (partitions == null) {
                pendingTxn.remove(groupId);
            } else {
                byProducer.values().forEach(m -> m.keySet().removeAll(partitions));
                byProducer.values().removeIf(Map::isEmpty);
                if (byProducer.isEmpty()) {
                    pendingTxn.remove(groupId);
                }
            }
        }
        LOG.atInfo().addKeyValue("group", groupId)
                .log("Dropped the pending transactional offsets of group {} ({})", groupId,
                        partitions == null ? "all partitions" : partitions);
    }

    private boolean hasAnyPending(String groupId) {
        synchronized (pendingTxn) {
            return pendingTxn.containsKey(groupId);
        }
    }

    /** True while a transactional offset of {@code partition} is staged in {@code groupId}. */
    public boolean hasPendingTransactionalOffset(String groupId, TopicPartitionRef partition) {
        synchronized (pendingTxn) {
            Map<Long, Map<TopicPartitionRef, Commit>> byProducer = pendingTxn.get(groupId);
            return byProducer != null && byProducer.values().stream().anyMatch(m -> m.containsKey(partition));
        }
    }

    /** The monitor the store calls of {@code groupId} are made under (its group, created as a simple one). */
    private Object groupMonitor(String groupId) {
        ConsumerGroup consumer = coordinator.consumerGroup(groupId);
        if (consumer != null && !consumer.dead) {
            return consumer;
        }
        ClassicGroup group = coordinator.getOrCreate(groupId);
        if (group != null) {
            return group;
        }
        consumer = coordinator.consumerGroup(groupId);
        return consumer != null ? consumer : this;
    }

    /** OffsetDelete: the group-level error, and per partition errors in {@code errors}. */
    public short delete(String groupId, List<TopicPartitionRef> partitions, Map<TopicPartitionRef, Short> errors) {
        if (groupId == null || groupId.isEmpty()) {
            return Errors.INVALID_GROUP_ID;
        }
        short notHere = coordinator.coordinatorError(groupId);
        if (notHere != Errors.NONE) {
            return notHere;
        }
        ConsumerGroup consumer = coordinator.consumerGroup(groupId);
        if (consumer != null) {
            synchronized (consumer) {
                if (!consumer.dead) {
                    return deletePartitions(groupId, partitions, errors, subscribedTopics(consumer));
                }
            }
        }
        ClassicGroup group = coordinator.group(groupId);
        if (group == null) {
            return Errors.GROUP_ID_NOT_FOUND;
        }
        synchronized (group) {
            if (group.is(GroupState.DEAD)) {
                return Errors.GROUP_ID_NOT_FOUND;
            }
            Set<String> subscribed;
            if (group.is(GroupState.EMPTY)) {
                subscribed = Set.of();
            } else {
                Optional<Set<String>> topics = ConsumerSubscriptions.subscribedTopics(group);
                if (topics.isEmpty()) {
                    return Errors.NON_EMPTY_GROUP;
                }
                subscribed = topics.get();
            }
            return deletePartitions(groupId, partitions, errors, subscribed);
        }
    }

    /** The topic names a consumer group's members subscribe to, regex matches included. Under its monitor. */
    private static Set<String> subscribedTopics(ConsumerGroup group) {
        Set<String> out = new java.util.HashSet<>(group.subscriptionMetadata.keySet());
        group.members.values().forEach(m -> out.addAll(m.subscribedTopicNames));
        return out;
    }

    /** Deletes the partitions' offsets unless subscribed to. Under the group's monitor. */
    private short deletePartitions(String groupId, List<TopicPartitionRef> partitions, Map<TopicPartitionRef, Short> errors,
                                   Set<String> subscribed) {
        List<TopicPartitionRef> deletable = new ArrayList<>();
        for (TopicPartitionRef tp : partitions) {
            Optional<TopicRecord> topic = store.topic(tp.topic());
            if (topic.isEmpty() || tp.partition() >= topic.get().partitions()) {
                errors.put(tp, Errors.UNKNOWN_TOPIC_OR_PARTITION);
            } else if (subscribed.contains(tp.topic())) {
                errors.put(tp, Errors.GROUP_SUBSCRIBED_TO_TOPIC);
            } else {
                errors.put(tp, Errors.NONE);
                deletable.add(tp);
            }
        }
        try {
            offsetStore.deleteOffsets(groupId, deletable);
        } catch (NotCoordinatorException e) {
            return Errors.NOT_COORDINATOR;
        } catch (ClusterStateException e) {
            LOG.atError().setCause(e).addKeyValue("group", groupId).log("Could not delete offsets of group {}", groupId);
            return Errors.COORDINATOR_NOT_AVAILABLE;
        }
        if (!deletable.isEmpty() && hasAnyPending(groupId)) {
            dropPendingTransactional(groupId, deletable);
        }
        return Errors.NONE;
    }

    /**
     * Removes expired offsets, as Kafka's offset cleanup: an offset with an explicit expiry once it passes;
     * in an Empty group every offset {@code offsets.retention.minutes} after the group became empty (after
     * its commit for a group that only stores offsets, or was loaded at start); in a Stable consumer group
     * the offsets of topics no member subscribes to, by commit time; and offsets of deleted topics. An
     * Empty group left without offsets is removed.
     */
    void expireOffsets() {
        long now = timer.nowMs();
        expireConsumerGroupOffsets(now);
        for (ClassicGroup group : coordinator.allGroups()) {
            synchronized (group) {
                if (group.is(GroupState.DEAD)) {
                    continue;
                }
                Map<TopicPartitionRef, CommittedOffset> committed = offsetStore.committedOffsets(group.groupId);
                List<TopicPartitionRef> expired = new ArrayList<>();
                Optional<Set<String>> subscribed = group.is(GroupState.STABLE)
                        ? ConsumerSubscriptions.subscribedTopics(group) : Optional.empty();
                committed.forEach((tp, o) -> {
                    if (isExpired(group, subscribed, tp, o, now) || store.topic(tp.topic()).isEmpty()) {
                        expired.add(tp);
                    }
                });
                if (!expired.isEmpty()) {
                    offsetStore.deleteOffsets(group.groupId, expired);
                    LOG.atInfo().addKeyValue("group", group.groupId).addKeyValue("offsets", expired.size())
                            .log("Removed {} expired offsets of group {}", expired.size(), group.groupId);
                }
                if (group.is(GroupState.EMPTY) && group.members.isEmpty() && group.pendingMembers.isEmpty()
                        && offsetStore.committedOffsets(group.groupId).isEmpty()) {
                    try {
                        offsetStore.deleteGroupMetadata(group.groupId);
                    } catch (ClusterStateException e) {
                        LOG.atWarn().addKeyValue("group", group.groupId).log("Could not remove the membership of "
                                + "expired group {}: {}; the next pass retries", group.groupId, e.getMessage());
                        continue;
                    }
                    coordinator.remove(group);
                }
            }
        }
    }

    /**
     * Kafka's rule for consumer groups: an offset expires {@code offsets.retention.minutes} after its commit
     * once no member subscribes to its topic (so every offset of an Empty group). An Empty group left without
     * offsets is removed.
     */
    private void expireConsumerGroupOffsets(long now) {
        for (ConsumerGroup group : coordinator.allConsumerGroups()) {
            synchronized (group) {
                if (group.dead) {
                    continue;
                }
                Set<String> subscribed = subscribedTopics(group);
                List<TopicPartitionRef> expired = new ArrayList<>();
                offsetStore.committedOffsets(group.groupId).forEach((tp, o) -> {
                    boolean byTime = o.expireTimestamp() >= 0 ? now >= o.expireTimestamp()
                            : !subscribed.contains(tp.topic()) && now - o.commitTimestamp() >= config.offsetsRetentionMs();
                    if (byTime || store.topic(tp.topic()).isEmpty()) {
                        expired.add(tp);
                    }
                });
                if (!expired.isEmpty()) {
                    offsetStore.deleteOffsets(group.groupId, expired);
                    LOG.atInfo().addKeyValue("group", group.groupId).addKeyValue("offsets", expired.size())
                            .log("Removed {} expired offsets of group {}", expired.size(), group.groupId);
                }
                if (group.members.isEmpty() && offsetStore.committedOffsets(group.groupId).isEmpty()) {
                    coordinator.removeConsumerGroup(group);
                }
            }
        }
    }

    private boolean isExpired(ClassicGroup group, Optional<Set<String>> subscribed, TopicPartitionRef tp,
                              CommittedOffset o, long now) {
        if (o.expireTimestamp() >= 0) {
            return now >= o.expireTimestamp();
        }
        long retention = config.offsetsRetentionMs();
        if (group.is(GroupState.EMPTY)) {
            boolean simple = group.protocolType == null || group.protocolType.isEmpty();
            long base = simple || group.stateTimestampMs < 0 ? o.commitTimestamp() : group.stateTimestampMs;
            return now - base >= retention;
        }
        return subscribed.isPresent() && !subscribed.get().contains(tp.topic()) && now - o.commitTimestamp() >= retention;
    }
}
