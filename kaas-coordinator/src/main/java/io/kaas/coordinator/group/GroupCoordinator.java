package io.kaas.coordinator.group;

import io.kaas.coordinator.CoordinatorContext;
import io.kaas.coordinator.CoordinatorTimer;
import io.kaas.wire.protocol.Errors;
import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.storage.PartitionLog;
import io.kaas.coordinator.internal.OwnedPartitions;
import io.kaas.wire.message.ConsumerGroupHeartbeatRequestData;
import io.kaas.wire.message.ConsumerGroupHeartbeatResponseData;
import io.kaas.wire.message.HeartbeatRequestData;
import io.kaas.wire.message.JoinGroupRequestData;
import io.kaas.wire.message.JoinGroupResponseData;
import io.kaas.wire.message.LeaveGroupRequestData.MemberIdentity;
import io.kaas.wire.message.LeaveGroupResponseData;
import io.kaas.wire.message.LeaveGroupResponseData.MemberResponse;
import io.kaas.wire.message.SyncGroupRequestData;
import io.kaas.wire.message.SyncGroupResponseData;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The group coordinator of this broker: every group's membership (classic protocol, and the KIP-848
 * consumer protocol in {@link ConsumerProtocol}) in memory, and
 * committed offsets through the {@link ClusterStateStore} ({@link OffsetManager}). Thread-safe: the
 * registry is concurrent and each group is guarded by its own monitor; nothing blocks on a network
 * event loop (handlers run on request threads, timers on the broker's scheduler).
 *
 * <p>Lifecycle: {@link #start()} loads the groups that have committed offsets and starts the offset
 * expiry task; {@link #close()} stops the timers and fails pending JoinGroup/SyncGroup calls with
 * COORDINATOR_NOT_AVAILABLE.
 */
public final class GroupCoordinator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GroupCoordinator.class);

    /** Kafka's name of the topic the offsets and group state are kept in. */
    public static final String OFFSETS_TOPIC = OffsetStore.TOPIC;

    private final ClusterStateStore store;
    private final OwnedPartitions owned;
    private final OffsetStore offsetStore;
    private final GroupCoordinatorConfig config;
    private final CoordinatorTimer timer;
    private final ClassicProtocol protocol;
    private final OffsetManager offsets;
    private final GroupAdmin admin;
    private final ConsumerProtocol consumerProtocol;
    private final GroupConfigs groupConfigs;
    private final ConcurrentMap<String, ClassicGroup> groups = new ConcurrentHashMap<>();
    /** KIP-848 groups; a group id is in at most one of the two maps (creation holds {@link #registryLock}). */
    private final ConcurrentMap<String, ConsumerGroup> consumerGroups = new ConcurrentHashMap<>();
    /** Taken before (never while holding) a group's monitor, to create a group of either type. */
    private final Object registryLock = new Object();
    private volatile CoordinatorTimer.Task expiryTask;
    private volatile boolean closed;

    /**
     * @param offsetsLog the internal topic {@code __consumer_offsets}: its partition count places the groups; its
     *                   partitions are handed over with {@link #onPartitionGained}
     */
    public GroupCoordinator(ClusterStateStore store, GroupCoordinatorConfig config, CoordinatorTimer timer,
                            ConsumerOffsetsLog offsetsLog) {
        this(store, config, timer, offsetsLog, OffsetStore.MIN_RECORDS);
    }

    /** As above; a partition of {@code __consumer_offsets} is rewritten once it holds more than {@code cleanupMinRecords}. */
    GroupCoordinator(ClusterStateStore store, GroupCoordinatorConfig config, CoordinatorTimer timer,
                     ConsumerOffsetsLog offsetsLog, long cleanupMinRecords) {
        this.store = store;
        this.owned = new OwnedPartitions(OFFSETS_TOPIC, offsetsLog::partitionCount);
        this.offsetStore = new OffsetStore(owned, timer, cleanupMinRecords);
        this.config = config;
        this.timer = timer;
        this.protocol = new ClassicProtocol(config, timer, this::storeGroup);
        this.groupConfigs = new GroupConfigs(store, config);
        this.consumerProtocol = new ConsumerProtocol(config, timer, store, groupConfigs);
        this.offsets = new OffsetManager(this, store, offsetStore, config, timer);
        this.admin = new GroupAdmin(this, store, offsetStore);
    }

    /**
     * On the store and time the broker hands its coordinators, with the settings the broker built from its
     * {@code group.*} and {@code offsets.*} keys.
     */
    public static GroupCoordinator create(CoordinatorContext ctx, GroupCoordinatorConfig config,
                                          ConsumerOffsetsLog offsetsLog) {
        return new GroupCoordinator(ctx.clusterStore(), config, ctx.timer(), offsetsLog);
    }

    /**
     * Schedules offset expiry. Groups are served once their partition of {@code __consumer_offsets} is
     * {@link #onPartitionGained gained}; the others answer NOT_COORDINATOR.
     */
    public void start() {
        LOG.info("Group coordinator started; it serves the groups of the {} partitions it is handed", OFFSETS_TOPIC);
        scheduleExpiry();
    }

    // ---- the partitions of __consumer_offsets this broker owns ----

    /** The partition of {@code __consumer_offsets} group {@code groupId} lives on: {@code abs(hashCode) % partitions}. */
    public int partitionFor(String groupId) {
        return owned.partitionFor(groupId);
    }

    /**
     * This broker now owns partition {@code partition} of {@code __consumer_offsets}, open at {@code leaderEpoch}:
     * loads its committed offsets (its groups answer COORDINATOR_LOAD_IN_PROGRESS meanwhile), moves there the offsets
     * of its groups that a store from before SPI 5 still holds (once: they are removed from the store after), and
     * serves its groups, those with offsets as Empty groups. A partition that cannot be read is logged; its groups
     * answer COORDINATOR_NOT_AVAILABLE. Blocks on I/O; never on an event loop.
     */
    public void onPartitionGained(int partition, PartitionLog log, int leaderEpoch) {
        long began = System.nanoTime();
        String name = OFFSETS_TOPIC + "-" + partition;
        owned.loading(partition, log, leaderEpoch);
        Set<String> loaded;
        Map<String, GroupMetadataCodec.Image> members;
        try {
            OffsetStore.Loaded state = offsetStore.load(partition, log);
            loaded = new java.util.HashSet<>(state.groupsWithOffsets());
            loaded.addAll(LegacyOffsets.migrate(store, offsetStore, partition));
            members = state.groups();
            // transactional offsets whose marker has not come yet stay pending, as Kafka loads them
            state.pendingTransactional().forEach((producerId, byGroup) -> byGroup.forEach((groupId, pending) -> {
                Map<io.kaas.api.cluster.TopicPartitionRef, OffsetManager.Commit> commits = new java.util.LinkedHashMap<>();
                pending.forEach((tp, o) -> commits.put(tp,
                        new OffsetManager.Commit(tp, o.offset(), o.leaderEpoch(), o.metadata())));
                offsets.stageTransactional(groupId, producerId, commits);
                loaded.add(groupId);
            }));
        } catch (IOException | RuntimeException e) {
            owned.failed(partition, leaderEpoch);
            LOG.atError().setCause(e).addKeyValue("partition", name)
                    .log("Could not load {}: its groups answer COORDINATOR_NOT_AVAILABLE until it is loaded again", name);
            return;
        }
        members.forEach((groupId, image) -> groups.put(groupId, restore(groupId, image)));
        loaded.addAll(members.keySet());
        for (String groupId : loaded) {
            groups.putIfAbsent(groupId, new ClassicGroup(groupId, -1));
        }
        owned.loaded(partition, leaderEpoch);
        LOG.atInfo().addKeyValue("partition", name).addKeyValue("leaderEpoch", leaderEpoch)
                .addKeyValue("groups", loaded.size())
                .log("Loaded {} groups ({} with members) from {} records of {} at leader epoch {} in {} ms",
                        loaded.size(), members.values().stream().filter(i -> !i.members().isEmpty()).count(),
                        offsetStore.records(partition), name, leaderEpoch,
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began));
    }

    /**
     * A classic group as its last GroupMetadata record left it: Stable with its members, their assignments and
     * leader (each member must heartbeat within its session timeout, else it is removed and the group rebalances),
     * or Empty in its generation.
     */
    private ClassicGroup restore(String groupId, GroupMetadataCodec.Image image) {
        ClassicGroup g = new ClassicGroup(groupId, image.stateTimestampMs());
        synchronized (g) {
            g.generationId = image.generation();
            g.protocolType = image.protocolType().isEmpty() ? null : image.protocolType();
            g.protocolName = image.protocol();
            for (GroupMetadataCodec.Member m : image.members()) {
                ClassicMember member = new ClassicMember(m.memberId(), m.groupInstanceId(), m.clientId(),
                        m.clientHost(), m.rebalanceTimeoutMs(), m.sessionTimeoutMs(),
                        List.of(new ClassicMember.Protocol(image.protocol() == null ? "" : image.protocol(),
                                m.subscription())));
                member.assignment = m.assignment();
                g.add(member, g.protocolType);
            }
            if (image.leader() != null && g.has(image.leader())) {
                g.leaderId = image.leader();
            }
            if (!g.members.isEmpty()) {
                g.transitionTo(GroupState.STABLE, image.stateTimestampMs());
                for (ClassicMember m : g.members.values()) {
                    protocol.scheduleHeartbeat(g, m, m.sessionTimeoutMs);
                }
            }
        }
        return g;
    }

    /** Stores a classic group's membership ({@link ClassicProtocol.GroupStore}); under the group's monitor. */
    private short storeGroup(ClassicGroup group) {
        try {
            offsetStore.storeGroup(group.groupId, GroupMetadataCodec.image(group));
            return Errors.NONE;
        } catch (io.kaas.coordinator.internal.NotCoordinatorException e) {
            LOG.atWarn().addKeyValue("group", group.groupId)
                    .log("The membership of group {} was not stored: {}", group.groupId, e.getMessage());
            return Errors.NOT_COORDINATOR;
        } catch (RuntimeException e) {
            LOG.atError().setCause(e).addKeyValue("group", group.groupId)
                    .log("Could not store the membership of group {}", group.groupId);
            return Errors.COORDINATOR_NOT_AVAILABLE;
        }
    }

    /**
     * This broker no longer owns partition {@code partition} of {@code __consumer_offsets}: its groups are dropped
     * (pending JoinGroup and SyncGroup calls and every later request answer NOT_COORDINATOR, so members find the new
     * coordinator and rejoin there) with their offsets and staged transactional offsets here.
     */
    public void onPartitionLost(int partition) {
        if (!owned.lost(partition)) {
            return;
        }
        int dropped = 0;
        for (ClassicGroup g : allGroups()) {
            if (partitionFor(g.groupId) == partition) {
                synchronized (g) {
                    protocol.shutdown(g, Errors.NOT_COORDINATOR);
                    g.transitionTo(GroupState.DEAD, timer.nowMs());
                    groups.remove(g.groupId, g);
                }
                offsets.dropPendingTransactional(g.groupId, null);
                dropped++;
            }
        }
        for (ConsumerGroup g : allConsumerGroups()) {
            if (partitionFor(g.groupId) == partition) {
                synchronized (g) {
                    removeConsumerGroup(g);
                }
                offsets.dropPendingTransactional(g.groupId, null);
                dropped++;
            }
        }
        offsetStore.drop(partition);
        LOG.atInfo().addKeyValue("partition", OFFSETS_TOPIC + "-" + partition)
                .log("Gave up {}-{}: {} groups dropped; their next coordinator loads them", OFFSETS_TOPIC, partition,
                        dropped);
    }

    /**
     * The error any request for {@code groupId} gets first: NOT_COORDINATOR if its partition is not this broker's,
     * COORDINATOR_LOAD_IN_PROGRESS while it loads, COORDINATOR_NOT_AVAILABLE if it failed to load or the coordinator
     * is closed; else NONE.
     */
    public short coordinatorError(String groupId) {
        if (closed) {
            return Errors.COORDINATOR_NOT_AVAILABLE;
        }
        return groupId == null ? Errors.NONE : owned.error(groupId);
    }

    private void scheduleExpiry() {
        if (closed) {
            return;
        }
        expiryTask = timer.schedule(config.offsetsRetentionCheckIntervalMs(), () -> {
            try {
                offsets.expireOffsets();
                offsetStore.rewriteAllDue();
            } catch (RuntimeException e) {
                LOG.atWarn().setCause(e).log("Offset expiry failed; retrying at the next interval");
            }
            scheduleExpiry();
        });
    }

    @Override
    public void close() {
        closed = true;
        CoordinatorTimer.Task t = expiryTask;
        if (t != null) {
            t.cancel();
        }
        for (ClassicGroup g : groups.values()) {
            synchronized (g) {
                protocol.shutdown(g);
            }
        }
        for (ConsumerGroup g : consumerGroups.values()) {
            synchronized (g) {
                consumerProtocol.shutdown(g);
            }
        }
    }

    public GroupCoordinatorConfig config() {
        return config;
    }

    public OffsetManager offsets() {
        return offsets;
    }

    /** The offsets committed by {@code groupId} as this broker holds them (its partition owned), empty if none. */
    public Map<io.kaas.api.cluster.TopicPartitionRef, io.kaas.api.cluster.CommittedOffset> committedOffsets(String groupId) {
        return offsetStore.committedOffsets(groupId);
    }

    public GroupAdmin admin() {
        return admin;
    }

    /** The groups' own configs (DescribeConfigs / IncrementalAlterConfigs on GROUP resources). */
    public GroupConfigs groupConfigs() {
        return groupConfigs;
    }

    // ---- registry ----

    ClassicGroup group(String groupId) {
        return groups.get(groupId);
    }

    Collection<ClassicGroup> allGroups() {
        return List.copyOf(groups.values());
    }

    /**
     * The classic group, created if absent; an Empty consumer group of that id is converted (Kafka does
     * the same), a non-empty one makes this return null.
     */
    ClassicGroup getOrCreate(String groupId) {
        ClassicGroup existing = groups.get(groupId);
        if (existing != null && existing.state != GroupState.DEAD) {
            return existing;
        }
        synchronized (registryLock) {
            ConsumerGroup consumer = consumerGroups.get(groupId);
            if (consumer != null) {
                synchronized (consumer) {
                    if (!consumer.dead) {
                        if (!consumer.members.isEmpty()) {
                            return null;
                        }
                        removeConsumerGroup(consumer);
                    }
                }
            }
            return groups.compute(groupId, (id, g) -> g == null || g.state == GroupState.DEAD ? new ClassicGroup(id, timer.nowMs()) : g);
        }
    }

    ConsumerGroup consumerGroup(String groupId) {
        return consumerGroups.get(groupId);
    }

    Collection<ConsumerGroup> allConsumerGroups() {
        return List.copyOf(consumerGroups.values());
    }

    /** Marks an Empty consumer group Dead and forgets it. Called under the group's monitor. */
    void removeConsumerGroup(ConsumerGroup group) {
        consumerProtocol.shutdown(group);
        group.dead = true;
        consumerGroups.remove(group.groupId, group);
    }

    /**
     * The consumer group, created if absent; an Empty classic group of that id (or one only holding
     * offsets) is converted, a classic group with members makes this return null.
     */
    private ConsumerGroup getOrCreateConsumerGroup(String groupId) {
        synchronized (registryLock) {
            ConsumerGroup existing = consumerGroups.get(groupId);
            if (existing != null && !existing.dead) {
                return existing;
            }
            ClassicGroup classic = groups.get(groupId);
            if (classic != null) {
                synchronized (classic) {
                    if (!classic.is(GroupState.DEAD)) {
                        if (!isEmptyClassic(classic)) {
                            return null;
                        }
                        remove(classic);
                    }
                }
            }
            ConsumerGroup created = new ConsumerGroup(groupId, timer.nowMs());
            consumerGroups.put(groupId, created);
            return created;
        }
    }

    private static boolean isEmptyClassic(ClassicGroup g) {
        return g.is(GroupState.EMPTY) && g.members.isEmpty() && g.pendingMembers.isEmpty();
    }

    // ---- consumer protocol (KIP-848) ----

    /** ConsumerGroupHeartbeat: join, heartbeat, reconcile or leave a consumer group; a regex may match every topic. */
    public ConsumerGroupHeartbeatResponseData consumerGroupHeartbeat(ConsumerGroupHeartbeatRequestData request,
                                                                     short version, String clientId, String clientHost) {
        return consumerGroupHeartbeat(request, version, clientId, clientHost, topic -> true);
    }

    /**
     * ConsumerGroupHeartbeat: join, heartbeat, reconcile or leave a consumer group. The group's regular
     * expressions are resolved after the heartbeat, as Kafka resolves them; a resolution this heartbeat starts
     * matches only topics {@code regexTopics} admits (Kafka: those the principal of the member whose heartbeat
     * starts it may DESCRIBE). The filter is called on the coordinator's timer thread, after this returns.
     */
    public ConsumerGroupHeartbeatResponseData consumerGroupHeartbeat(ConsumerGroupHeartbeatRequestData request,
                                                                     short version, String clientId, String clientHost,
                                                                     Predicate<String> regexTopics) {
        try {
            consumerProtocol.validate(request, version);
            String groupId = request.groupId();
            short notHere = coordinatorError(groupId);
            if (notHere != Errors.NONE) {
                return ConsumerProtocol.error(notHere, null);
            }
            boolean joining = request.memberEpoch() == 0;
            while (true) {
                ConsumerGroup group = consumerGroups.get(groupId);
                if (group == null || group.dead) {
                    if (!joining) {
                        ClassicGroup classic = groups.get(groupId);
                        if (classic != null && !classic.is(GroupState.DEAD) && !isEmptyClassic(classic)) {
                            throw new GroupException(Errors.GROUP_ID_NOT_FOUND, "Group " + groupId + " is not a consumer group.");
                        }
                        // Kafka: "not found" is UNKNOWN_MEMBER_ID, so the member rejoins (e.g. after a restart here,
                        // where membership is not persisted).
                        throw new GroupException(Errors.UNKNOWN_MEMBER_ID, "Consumer group " + groupId + " not found.");
                    }
                    group = getOrCreateConsumerGroup(groupId);
                    if (group == null) {
                        throw new GroupException(Errors.GROUP_ID_NOT_FOUND, "Cannot upgrade classic group " + groupId
                                + " to consumer group because online upgrade is not supported.");
                    }
                }
                synchronized (group) {
                    if (group.dead) {
                        continue;
                    }
                    return consumerProtocol.heartbeat(group, request, clientId, clientHost, regexTopics);
                }
            }
        } catch (GroupException e) {
            return ConsumerProtocol.error(e.errorCode, e.getMessage());
        }
    }

    ConsumerProtocol consumerProtocol() {
        return consumerProtocol;
    }

    /** Marks an Empty group Dead and forgets it. Called under the group's monitor. */
    void remove(ClassicGroup group) {
        protocol.shutdown(group);
        group.transitionTo(GroupState.DEAD, timer.nowMs());
        groups.remove(group.groupId, group);
    }

    /** Forgets a group created for a request that then failed, if nothing else uses it. Under its monitor. */
    private void removeIfUnused(ClassicGroup group) {
        if (group.is(GroupState.EMPTY) && group.members.isEmpty() && group.pendingMembers.isEmpty()
                && group.generationId == 0 && offsetStore.committedOffsets(group.groupId).isEmpty()) {
            remove(group);
        }
    }

    // ---- classic protocol ----

    /** JoinGroup; the future completes when the join phase ends (or at once on an error). */
    public CompletableFuture<JoinGroupResponseData> joinGroup(JoinGroupRequestData request, short version,
                                                              String clientId, String clientHost) {
        ClassicProtocol.Join join = ClassicProtocol.Join.of(request, version, clientId, clientHost);
        String groupId = request.groupId();
        if (groupId == null || groupId.isEmpty()) {
            return done(ClassicProtocol.joinError(Errors.INVALID_GROUP_ID, join.memberId()));
        }
        if (join.sessionTimeoutMs() < config.minSessionTimeoutMs() || join.sessionTimeoutMs() > config.maxSessionTimeoutMs()) {
            return done(ClassicProtocol.joinError(Errors.INVALID_SESSION_TIMEOUT, join.memberId()));
        }
        short notHere = coordinatorError(groupId);
        if (notHere != Errors.NONE) {
            return done(ClassicProtocol.joinError(notHere, join.memberId()));
        }
        boolean newMember = join.memberId().isEmpty();
        while (true) {
            ClassicGroup group = newMember ? getOrCreate(groupId) : group(groupId);
            if (group == null) {
                // A new member of a consumer (KIP-848) group with members: no mixed groups here.
                return done(ClassicProtocol.joinError(newMember ? Errors.INCONSISTENT_GROUP_PROTOCOL
                        : Errors.UNKNOWN_MEMBER_ID, join.memberId()));
            }
            synchronized (group) {
                if (group.is(GroupState.DEAD)) {
                    if (newMember) {
                        continue; // removed meanwhile: take the fresh one
                    }
                    return done(ClassicProtocol.joinError(Errors.UNKNOWN_MEMBER_ID, join.memberId()));
                }
                if (!group.supportsProtocols(join.protocolType(), join.protocols())) {
                    removeIfUnused(group);
                    return done(ClassicProtocol.joinError(Errors.INCONSISTENT_GROUP_PROTOCOL, join.memberId()));
                }
                if (!protocol.acceptsJoiningMember(group, join.memberId())) {
                    return done(ClassicProtocol.joinError(Errors.GROUP_MAX_SIZE_REACHED, join.memberId()));
                }
                CompletableFuture<JoinGroupResponseData> f = new CompletableFuture<>();
                protocol.join(group, join, f);
                return f;
            }
        }
    }

    /** SyncGroup; a follower's future completes when the leader's assignment arrives. */
    public CompletableFuture<SyncGroupResponseData> syncGroup(SyncGroupRequestData request) {
        String groupId = request.groupId();
        if (groupId == null || groupId.isEmpty()) {
            return done(ClassicProtocol.syncError(Errors.INVALID_GROUP_ID));
        }
        short notHere = coordinatorError(groupId);
        if (notHere != Errors.NONE) {
            return done(ClassicProtocol.syncError(notHere));
        }
        ClassicGroup group = group(groupId);
        if (group == null) {
            return done(ClassicProtocol.syncError(Errors.UNKNOWN_MEMBER_ID));
        }
        synchronized (group) {
            short error = validateMember(group, request.memberId(), request.groupInstanceId(), request.generationId());
            if (error == Errors.NONE && request.protocolType() != null && !request.protocolType().equals(group.protocolType)) {
                error = Errors.INCONSISTENT_GROUP_PROTOCOL;
            }
            if (error == Errors.NONE && request.protocolName() != null && !request.protocolName().equals(group.protocolName)) {
                error = Errors.INCONSISTENT_GROUP_PROTOCOL;
            }
            if (error != Errors.NONE) {
                return done(ClassicProtocol.syncError(error));
            }
            ClassicMember member = group.members.get(request.memberId());
            switch (group.state) {
                case PREPARING_REBALANCE:
                    return done(ClassicProtocol.syncError(Errors.REBALANCE_IN_PROGRESS));
                case COMPLETING_REBALANCE: {
                    Map<String, byte[]> assignments = new HashMap<>();
                    for (SyncGroupRequestData.SyncGroupRequestAssignment a : request.assignments()) {
                        assignments.put(a.memberId(), a.assignment());
                    }
                    CompletableFuture<SyncGroupResponseData> f = new CompletableFuture<>();
                    protocol.syncInCompletingRebalance(group, member, assignments, f);
                    return f;
                }
                case STABLE:
                    group.pendingSyncMembers.remove(member.memberId);
                    protocol.scheduleHeartbeat(group, member, member.sessionTimeoutMs);
                    return done(new SyncGroupResponseData().setErrorCode(Errors.NONE)
                            .setProtocolType(group.protocolType).setProtocolName(group.protocolName)
                            .setAssignment(member.assignment));
                default:
                    return done(ClassicProtocol.syncError(Errors.UNKNOWN_MEMBER_ID));
            }
        }
    }

    /** Heartbeat: the error code to answer. */
    public short heartbeat(HeartbeatRequestData request) {
        String groupId = request.groupId();
        if (groupId == null || groupId.isEmpty()) {
            return Errors.INVALID_GROUP_ID;
        }
        short notHere = coordinatorError(groupId);
        if (notHere != Errors.NONE) {
            return notHere;
        }
        ClassicGroup group = group(groupId);
        if (group == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        synchronized (group) {
            short error = validateMember(group, request.memberId(), request.groupInstanceId(), request.generationId());
            if (error != Errors.NONE) {
                return error;
            }
            ClassicMember member = group.members.get(request.memberId());
            switch (group.state) {
                case COMPLETING_REBALANCE:
                case STABLE:
                    protocol.scheduleHeartbeat(group, member, member.sessionTimeoutMs);
                    return Errors.NONE;
                case PREPARING_REBALANCE:
                    protocol.scheduleHeartbeat(group, member, member.sessionTimeoutMs);
                    return Errors.REBALANCE_IN_PROGRESS;
                default:
                    return Errors.UNKNOWN_MEMBER_ID;
            }
        }
    }

    /**
     * Kafka's checks for a request from a group member, in Kafka's order: Dead → COORDINATOR_NOT_AVAILABLE,
     * another member holds the instance id → FENCED_INSTANCE_ID, unknown member → UNKNOWN_MEMBER_ID, other
     * generation → ILLEGAL_GENERATION. Under the group's monitor.
     */
    static short validateMember(ClassicGroup group, String memberId, String groupInstanceId, int generationId) {
        if (group.is(GroupState.DEAD)) {
            return Errors.COORDINATOR_NOT_AVAILABLE;
        }
        if (group.isStaticMemberFenced(groupInstanceId, memberId)) {
            return Errors.FENCED_INSTANCE_ID;
        }
        if (!group.has(memberId)) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        if (generationId != group.generationId) {
            return Errors.ILLEGAL_GENERATION;
        }
        return Errors.NONE;
    }

    /** LeaveGroup for one or more members (v3+ batch; v0-2 pass one member). */
    public LeaveGroupResponseData leaveGroup(String groupId, List<MemberIdentity> leaving) {
        LeaveGroupResponseData response = new LeaveGroupResponseData();
        if (groupId == null || groupId.isEmpty()) {
            return response.setErrorCode(Errors.INVALID_GROUP_ID);
        }
        short notHere = coordinatorError(groupId);
        if (notHere != Errors.NONE) {
            return response.setErrorCode(notHere);
        }
        ClassicGroup group = group(groupId);
        List<MemberResponse> results = new ArrayList<>();
        if (group == null) {
            leaving.forEach(m -> results.add(memberResponse(m, Errors.UNKNOWN_MEMBER_ID)));
            return response.setMembers(results);
        }
        synchronized (group) {
            if (group.is(GroupState.DEAD)) {
                return response.setErrorCode(Errors.COORDINATOR_NOT_AVAILABLE);
            }
            for (MemberIdentity m : leaving) {
                results.add(memberResponse(m, leaveOne(group, m)));
            }
        }
        return response.setMembers(results);
    }

    private short leaveOne(ClassicGroup group, MemberIdentity m) {
        String memberId = m.memberId() == null ? "" : m.memberId();
        String reason = "member left the group" + (m.reason() == null ? "" : " (" + m.reason() + ")");
        if (memberId.isEmpty()) {
            // Administrative removal by group.instance.id (kafka-consumer-groups --delete-members / Admin).
            String current = m.groupInstanceId() == null ? null : group.staticMembers.get(m.groupInstanceId());
            if (current == null) {
                return Errors.UNKNOWN_MEMBER_ID;
            }
            protocol.removeMember(group, group.members.get(current), reason);
            return Errors.NONE;
        }
        if (group.pendingMembers.containsKey(memberId)) {
            protocol.removePendingMember(group, memberId);
            return Errors.NONE;
        }
        if (group.isStaticMemberFenced(m.groupInstanceId(), memberId)) {
            return Errors.FENCED_INSTANCE_ID;
        }
        ClassicMember member = group.members.get(memberId);
        if (member == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        LOG.atInfo().addKeyValue("group", group.groupId).addKeyValue("member", memberId)
                .log("Member {} left group {}", memberId, group.groupId);
        protocol.removeMember(group, member, reason);
        return Errors.NONE;
    }

    private static MemberResponse memberResponse(MemberIdentity m, short error) {
        return new MemberResponse().setMemberId(m.memberId()).setGroupInstanceId(m.groupInstanceId()).setErrorCode(error);
    }

    ClassicProtocol protocol() {
        return protocol;
    }

    static <T> CompletableFuture<T> done(T value) {
        return CompletableFuture.completedFuture(value);
    }
}
