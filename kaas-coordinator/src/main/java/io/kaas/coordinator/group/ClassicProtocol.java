package io.kaas.coordinator.group;

import io.kaas.coordinator.CoordinatorTimer;
import io.kaas.wire.protocol.Errors;
import io.kaas.wire.message.JoinGroupRequestData;
import io.kaas.wire.message.JoinGroupResponseData;
import io.kaas.wire.message.SyncGroupResponseData;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The classic rebalance protocol on one group at a time: JoinGroup, the join/sync/heartbeat timers,
 * and the transitions between them, following Kafka's {@code GroupMetadataManager} for classic groups.
 * Every method here is called with the group's monitor held; futures are completed under it.
 */
final class ClassicProtocol {
    private static final Logger LOG = LoggerFactory.getLogger(ClassicProtocol.class);
    private static final byte[] EMPTY = new byte[0];

    /** Makes a group's membership durable at the end of a rebalance; called with the group's monitor held. */
    @FunctionalInterface
    interface GroupStore {
        /** @return NONE, or the error to answer the members (NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE) */
        short store(ClassicGroup group);
    }

    private final GroupCoordinatorConfig config;
    private final CoordinatorTimer timer;
    private final GroupStore store;

    ClassicProtocol(GroupCoordinatorConfig config, CoordinatorTimer timer, GroupStore store) {
        this.config = config;
        this.timer = timer;
        this.store = store;
    }

    /** The parts of a JoinGroup request the protocol needs. */
    record Join(String memberId, String groupInstanceId, boolean requireKnownMemberId, boolean supportsSkipAssignment,
                String clientId,
                String clientHost, int rebalanceTimeoutMs, int sessionTimeoutMs, String protocolType,
                List<ClassicMember.Protocol> protocols, String reason) {

        static Join of(JoinGroupRequestData r, short version, String clientId, String clientHost) {
            List<ClassicMember.Protocol> protocols = new ArrayList<>();
            for (JoinGroupRequestData.JoinGroupRequestProtocol p : r.protocols()) {
                protocols.add(new ClassicMember.Protocol(p.name(), p.metadata() == null ? EMPTY : p.metadata()));
            }
            int rebalanceTimeout = version == 0 || r.rebalanceTimeoutMs() < 0 ? r.sessionTimeoutMs() : r.rebalanceTimeoutMs();
            return new Join(r.memberId() == null ? "" : r.memberId(), r.groupInstanceId(), version >= 4, version >= 9,
                    clientId == null ? "" : clientId, clientHost, rebalanceTimeout, r.sessionTimeoutMs(),
                    r.protocolType(), protocols, r.reason());
        }
    }

    static JoinGroupResponseData joinError(short error, String memberId) {
        return new JoinGroupResponseData().setErrorCode(error).setGenerationId(-1).setProtocolName(null)
                .setLeader("").setMemberId(memberId == null ? "" : memberId).setMembers(new ArrayList<>());
    }

    static SyncGroupResponseData syncError(short error) {
        return new SyncGroupResponseData().setErrorCode(error).setAssignment(EMPTY);
    }

    /** Whether the group accepts {@code memberId} (new or known) without passing {@code group.max.size}. */
    boolean acceptsJoiningMember(ClassicGroup group, String memberId) {
        switch (group.state) {
            case EMPTY:
            case DEAD:
                return true;
            case PREPARING_REBALANCE:
                return (group.has(memberId) && group.members.get(memberId).isAwaitingJoin())
                        || group.awaitingJoinCount() < config.maxSize();
            default:
                return group.has(memberId) || group.members.size() < config.maxSize();
        }
    }

    /** A JoinGroup whose group, protocols and size were validated; completes {@code f} now or later. */
    void join(ClassicGroup group, Join join, CompletableFuture<JoinGroupResponseData> f) {
        if (join.memberId().isEmpty()) {
            newMemberJoin(group, join, f);
        } else {
            currentMemberJoin(group, join, f);
        }
        if (group.is(GroupState.PREPARING_REBALANCE)) {
            maybeCompleteJoin(group);
        }
    }

    private void newMemberJoin(ClassicGroup group, Join join, CompletableFuture<JoinGroupResponseData> f) {
        String newMemberId = join.clientId() + "-" + UUID.randomUUID();
        if (join.groupInstanceId() != null) {
            String oldMemberId = group.staticMembers.get(join.groupInstanceId());
            if (oldMemberId != null) {
                replaceStaticMember(group, join, oldMemberId, newMemberId, f);
                return;
            }
            addMemberAndRebalance(group, newMemberId, join, f);
        } else if (join.requireKnownMemberId()) {
            // KIP-394: hand out the id first, so a client that times out does not leave a member behind.
            group.pendingMembers.put(newMemberId, timer.schedule(join.sessionTimeoutMs(),
                    () -> expirePendingMember(group, newMemberId)));
            f.complete(joinError(Errors.MEMBER_ID_REQUIRED, newMemberId));
        } else {
            addMemberAndRebalance(group, newMemberId, join, f);
        }
    }

    private void currentMemberJoin(ClassicGroup group, Join join, CompletableFuture<JoinGroupResponseData> f) {
        String memberId = join.memberId();
        if (group.pendingMembers.containsKey(memberId)) {
            if (join.groupInstanceId() != null) {
                f.complete(joinError(Errors.UNKNOWN_MEMBER_ID, memberId));
                return;
            }
            addMemberAndRebalance(group, memberId, join, f);
            return;
        }
        if (group.isStaticMemberFenced(join.groupInstanceId(), memberId)) {
            f.complete(joinError(Errors.FENCED_INSTANCE_ID, memberId));
            return;
        }
        if (!group.has(memberId) || (join.groupInstanceId() != null && !group.hasStaticMember(join.groupInstanceId()))) {
            f.complete(joinError(Errors.UNKNOWN_MEMBER_ID, memberId));
            return;
        }
        ClassicMember member = group.members.get(memberId);
        switch (group.state) {
            case PREPARING_REBALANCE -> updateMemberAndRebalance(group, member, join, f);
            case COMPLETING_REBALANCE -> {
                if (member.matches(join.protocols())) {
                    // The member lost our JoinGroup answer: answer again for the current generation.
                    f.complete(currentGeneration(group, member, group.isLeader(memberId), false));
                } else {
                    updateMemberAndRebalance(group, member, join, f);
                }
            }
            case STABLE -> {
                if (group.isLeader(memberId) || !member.matches(join.protocols())) {
                    // A leader's JoinGroup forces a rebalance (e.g. it saw topic metadata change).
                    updateMemberAndRebalance(group, member, join, f);
                } else {
                    f.complete(currentGeneration(group, member, false, false));
                }
            }
            default -> f.complete(joinError(Errors.UNKNOWN_MEMBER_ID, memberId));
        }
    }

    private void replaceStaticMember(ClassicGroup group, Join join, String oldMemberId, String newMemberId,
                                     CompletableFuture<JoinGroupResponseData> f) {
        ClassicMember old = group.members.get(oldMemberId);
        String currentLeader = group.leaderId;
        old.completeJoin(joinError(Errors.FENCED_INSTANCE_ID, oldMemberId));
        old.completeSync(syncError(Errors.FENCED_INSTANCE_ID));
        ClassicMember member = group.replaceStaticMember(join.groupInstanceId(), oldMemberId, newMemberId);
        List<ClassicMember.Protocol> oldProtocols = member.protocols;
        member.protocols = List.copyOf(join.protocols());
        member.rebalanceTimeoutMs = join.rebalanceTimeoutMs();
        member.sessionTimeoutMs = join.sessionTimeoutMs();
        scheduleHeartbeat(group, member, member.sessionTimeoutMs);
        LOG.atInfo().addKeyValue("group", group.groupId).addKeyValue("groupInstanceId", join.groupInstanceId())
                .log("Static member {} of group {} rejoined as {}", oldMemberId, group.groupId, newMemberId);
        switch (group.state) {
            case STABLE -> {
                if (group.selectProtocol().equals(group.protocolName)) {
                    // Same protocol: no rebalance; the member keeps its assignment (KIP-345).
                    // A v9+ leader gets the members and skips the assignment (KIP-814); anyone else is told the
                    // old leader id, so a replaced leader on an older version does not compute an assignment
                    // a Stable group would never hand out.
                    boolean skip = group.isLeader(newMemberId) && join.supportsSkipAssignment();
                    JoinGroupResponseData r = currentGeneration(group, member, skip, skip);
                    f.complete(skip ? r : r.setLeader(currentLeader == null ? "" : currentLeader));
                } else {
                    member.awaitingJoin = f;
                    prepareRebalance(group, "static member " + newMemberId + " changed protocols");
                }
            }
            case COMPLETING_REBALANCE -> {
                // The leader may already hold the old member id: rebalance so the new id gets an assignment.
                member.awaitingJoin = f;
                prepareRebalance(group, "static member " + newMemberId + " rejoined during CompletingRebalance");
            }
            case PREPARING_REBALANCE -> member.awaitingJoin = f;
            default -> {
                member.protocols = oldProtocols;
                f.complete(joinError(Errors.UNKNOWN_MEMBER_ID, newMemberId));
            }
        }
    }

    private JoinGroupResponseData currentGeneration(ClassicGroup group, ClassicMember member, boolean withMembers,
                                                    boolean skipAssignment) {
        return new JoinGroupResponseData().setErrorCode(Errors.NONE).setGenerationId(group.generationId)
                .setProtocolType(group.protocolType).setProtocolName(group.protocolName)
                .setLeader(group.leaderId == null ? "" : group.leaderId).setSkipAssignment(skipAssignment)
                .setMemberId(member.memberId).setMembers(withMembers ? group.memberMetadata() : new ArrayList<>());
    }

    private void addMemberAndRebalance(ClassicGroup group, String memberId, Join join,
                                       CompletableFuture<JoinGroupResponseData> f) {
        ClassicMember member = new ClassicMember(memberId, join.groupInstanceId(), join.clientId(), join.clientHost(),
                join.rebalanceTimeoutMs(), join.sessionTimeoutMs(), join.protocols());
        member.isNew = true;
        member.awaitingJoin = f;
        if (group.is(GroupState.PREPARING_REBALANCE) && group.generationId == 0) {
            group.newMemberAdded = true;
        }
        group.add(member, join.protocolType());
        // A new member cannot heartbeat before its JoinGroup is answered; drop it if it never is.
        scheduleHeartbeat(group, member, GroupCoordinatorConfig.NEW_MEMBER_JOIN_TIMEOUT_MS);
        maybePrepareRebalance(group, "member " + memberId + " joined" + reasonSuffix(join.reason()));
    }

    private void updateMemberAndRebalance(ClassicGroup group, ClassicMember member, Join join,
                                          CompletableFuture<JoinGroupResponseData> f) {
        member.protocols = List.copyOf(join.protocols());
        member.rebalanceTimeoutMs = join.rebalanceTimeoutMs();
        member.sessionTimeoutMs = join.sessionTimeoutMs();
        member.completeJoin(joinError(Errors.REBALANCE_IN_PROGRESS, member.memberId));
        member.awaitingJoin = f;
        maybePrepareRebalance(group, "member " + member.memberId + " rejoined" + reasonSuffix(join.reason()));
    }

    private static String reasonSuffix(String reason) {
        return reason == null || reason.isEmpty() ? "" : " (" + reason + ")";
    }

    void maybePrepareRebalance(ClassicGroup group, String reason) {
        if (group.state.canRebalance()) {
            prepareRebalance(group, reason);
        }
    }

    void prepareRebalance(ClassicGroup group, String reason) {
        if (group.is(GroupState.COMPLETING_REBALANCE)) {
            propagateAssignment(group, Errors.REBALANCE_IN_PROGRESS, true);
        }
        group.cancelSyncTimer();
        group.cancelJoinTimer();
        boolean wasEmpty = group.is(GroupState.EMPTY);
        group.transitionTo(GroupState.PREPARING_REBALANCE, timer.nowMs());
        LOG.atInfo().addKeyValue("group", group.groupId).addKeyValue("generation", group.generationId)
                .log("Preparing to rebalance group {} in generation {}: {}", group.groupId, group.generationId, reason);
        if (wasEmpty) {
            int delay = config.initialRebalanceDelayMs();
            scheduleInitialJoin(group, delay, Math.max(group.rebalanceTimeoutMs() - delay, 0));
        } else {
            scheduleJoin(group, group.rebalanceTimeoutMs());
            maybeCompleteJoin(group);
        }
    }

    private void scheduleJoin(ClassicGroup group, long delayMs) {
        CoordinatorTimer.Task[] self = new CoordinatorTimer.Task[1];
        // Scheduled under the group's monitor, which the task takes first: self[0] is set when it runs.
        self[0] = timer.schedule(delayMs, () -> {
            synchronized (group) {
                if (group.joinTimer == self[0] && group.is(GroupState.PREPARING_REBALANCE)) {
                    completeJoin(group);
                }
            }
        });
        group.joinTimer = self[0];
    }

    /** Kafka's InitialDelayedJoin: wait, and wait again (up to the rebalance timeout) while members keep coming. */
    private void scheduleInitialJoin(ClassicGroup group, int delayMs, int remainingMs) {
        group.initialDelayActive = true;
        CoordinatorTimer.Task[] self = new CoordinatorTimer.Task[1];
        self[0] = timer.schedule(delayMs, () -> {
            synchronized (group) {
                if (group.joinTimer != self[0] || !group.is(GroupState.PREPARING_REBALANCE)) {
                    return;
                }
                if (group.newMemberAdded && remainingMs != 0) {
                    group.newMemberAdded = false;
                    int delay = Math.min(config.initialRebalanceDelayMs(), remainingMs);
                    scheduleInitialJoin(group, delay, Math.max(remainingMs - delay, 0));
                } else {
                    group.initialDelayActive = false;
                    completeJoin(group);
                }
            }
        });
        group.joinTimer = self[0];
    }

    /** Completes the join phase early when every member has rejoined (never during the initial delay). */
    void maybeCompleteJoin(ClassicGroup group) {
        if (group.is(GroupState.PREPARING_REBALANCE) && !group.initialDelayActive && group.hasAllMembersJoined()) {
            completeJoin(group);
        }
    }

    private void completeJoin(ClassicGroup group) {
        group.cancelJoinTimer();
        for (ClassicMember m : new ArrayList<>(group.members.values())) {
            if (!m.isAwaitingJoin() && !m.isStatic()) {
                LOG.atInfo().addKeyValue("group", group.groupId).addKeyValue("member", m.memberId)
                        .log("Removing member {} of group {}: it did not rejoin in time", m.memberId, group.groupId);
                group.remove(m.memberId);
                m.completeSync(syncError(Errors.UNKNOWN_MEMBER_ID));
            }
        }
        if (group.is(GroupState.DEAD)) {
            return;
        }
        if (!group.maybeElectNewJoinedLeader() && !group.members.isEmpty()) {
            // Nobody rejoined (only static members remain): wait for them, or for their session timeouts.
            scheduleJoin(group, group.rebalanceTimeoutMs());
            return;
        }
        group.initNextGeneration(timer.nowMs());
        if (group.is(GroupState.EMPTY)) {
            LOG.atInfo().addKeyValue("group", group.groupId).addKeyValue("generation", group.generationId)
                    .log("Group {} with generation {} is now empty", group.groupId, group.generationId);
            store.store(group); // as Kafka: the empty generation is kept (a failure is logged by the store)
            return;
        }
        LOG.atInfo().addKeyValue("group", group.groupId).addKeyValue("generation", group.generationId)
                .addKeyValue("members", group.members.size()).addKeyValue("protocol", group.protocolName)
                .log("Stabilized group {} generation {} with {} members (protocol {})", group.groupId, group.generationId,
                        group.members.size(), group.protocolName);
        for (ClassicMember m : group.members.values()) {
            m.completeJoin(currentGeneration(group, m, group.isLeader(m.memberId), false));
            scheduleHeartbeat(group, m, m.sessionTimeoutMs);
            m.isNew = false;
        }
        int generation = group.generationId;
        group.syncTimer = timer.schedule(group.rebalanceTimeoutMs(), () -> expirePendingSync(group, generation));
    }

    /** SyncGroup from a validated member of the current generation while the group is CompletingRebalance. */
    void syncInCompletingRebalance(ClassicGroup group, ClassicMember member, Map<String, byte[]> assignments,
                                   CompletableFuture<SyncGroupResponseData> f) {
        member.completeSync(syncError(Errors.REBALANCE_IN_PROGRESS));
        member.awaitingSync = f;
        group.pendingSyncMembers.remove(member.memberId);
        if (!group.isLeader(member.memberId)) {
            return;
        }
        for (ClassicMember m : group.members.values()) {
            byte[] a = assignments.get(m.memberId);
            m.assignment = a == null ? EMPTY : a;
        }
        short error = store.store(group);
        if (error != Errors.NONE) {
            // As Kafka: the members hear the error, with no assignment, and the group rebalances.
            propagateAssignment(group, error, true);
            prepareRebalance(group, "could not store the assignment (" + error + ")");
            return;
        }
        propagateAssignment(group, Errors.NONE, false);
        group.transitionTo(GroupState.STABLE, timer.nowMs());
        if (group.pendingSyncMembers.isEmpty()) {
            group.cancelSyncTimer();
        }
    }

    /** Answers every member awaiting SyncGroup with its assignment (or {@code error} and no assignment). */
    private void propagateAssignment(ClassicGroup group, short error, boolean clearAssignments) {
        for (ClassicMember m : group.members.values()) {
            if (clearAssignments) {
                m.assignment = EMPTY;
            }
            if (m.isAwaitingSync()) {
                m.completeSync(new SyncGroupResponseData().setErrorCode(error).setProtocolType(group.protocolType)
                        .setProtocolName(group.protocolName).setAssignment(error == Errors.NONE ? m.assignment : EMPTY));
                if (error == Errors.NONE) {
                    scheduleHeartbeat(group, m, m.sessionTimeoutMs);
                }
            }
        }
    }

    private void expirePendingSync(ClassicGroup group, int generation) {
        synchronized (group) {
            if (generation != group.generationId || group.pendingSyncMembers.isEmpty()
                    || !(group.is(GroupState.COMPLETING_REBALANCE) || group.is(GroupState.STABLE))) {
                return;
            }
            List<String> late = new ArrayList<>(group.pendingSyncMembers);
            for (String memberId : late) {
                ClassicMember m = group.members.get(memberId);
                group.remove(memberId);
                if (m != null) {
                    m.completeJoin(joinError(Errors.UNKNOWN_MEMBER_ID, ""));
                }
            }
            prepareRebalance(group, "members " + late + " did not send SyncGroup in time");
        }
    }

    /** (Re)arms the member's session timer; called on every heartbeat and on join/sync completion. */
    void scheduleHeartbeat(ClassicGroup group, ClassicMember member, long timeoutMs) {
        member.cancelHeartbeat();
        long epoch = ++member.heartbeatEpoch;
        String memberId = member.memberId;
        member.heartbeatTimer = timer.schedule(timeoutMs, () -> expireHeartbeat(group, memberId, epoch));
    }

    private void expireHeartbeat(ClassicGroup group, String memberId, long epoch) {
        synchronized (group) {
            ClassicMember m = group.members.get(memberId);
            if (group.is(GroupState.DEAD) || m == null || m.heartbeatEpoch != epoch) {
                return;
            }
            if (!m.isNew && (m.isAwaitingJoin() || m.isAwaitingSync())) {
                return; // a member waiting in a rebalance is alive by definition
            }
            LOG.atInfo().addKeyValue("group", group.groupId).addKeyValue("member", memberId)
                    .log("Member {} of group {} expired: no heartbeat within its session timeout", memberId, group.groupId);
            removeMember(group, m, "member " + memberId + " expired");
        }
    }

    private void expirePendingMember(ClassicGroup group, String memberId) {
        synchronized (group) {
            if (group.pendingMembers.remove(memberId) != null && group.is(GroupState.PREPARING_REBALANCE)) {
                maybeCompleteJoin(group);
            }
        }
    }

    /** Removes a member (expiry or LeaveGroup) and rebalances the rest. */
    void removeMember(ClassicGroup group, ClassicMember member, String reason) {
        member.completeJoin(joinError(Errors.UNKNOWN_MEMBER_ID, ""));
        member.completeSync(syncError(Errors.UNKNOWN_MEMBER_ID));
        group.remove(member.memberId);
        switch (group.state) {
            case STABLE, COMPLETING_REBALANCE -> maybePrepareRebalance(group, reason);
            case PREPARING_REBALANCE -> maybeCompleteJoin(group);
            default -> {
            }
        }
    }

    /** Removes a member id handed out with MEMBER_ID_REQUIRED that has not joined yet. */
    void removePendingMember(ClassicGroup group, String memberId) {
        CoordinatorTimer.Task t = group.pendingMembers.remove(memberId);
        if (t != null) {
            t.cancel();
        }
        if (group.is(GroupState.PREPARING_REBALANCE)) {
            maybeCompleteJoin(group);
        }
    }

    /** Stops every timer of a group that is being removed and fails whatever waits on it. */
    void shutdown(ClassicGroup group) {
        shutdown(group, Errors.COORDINATOR_NOT_AVAILABLE);
    }

    /** Cancels the group's timers and fails its pending JoinGroup and SyncGroup calls with {@code error}. */
    void shutdown(ClassicGroup group, short error) {
        group.cancelJoinTimer();
        group.cancelSyncTimer();
        group.pendingMembers.values().forEach(CoordinatorTimer.Task::cancel);
        group.pendingMembers.clear();
        for (ClassicMember m : group.members.values()) {
            m.cancelHeartbeat();
            m.completeJoin(joinError(error, m.memberId));
            m.completeSync(syncError(error));
        }
    }
}
