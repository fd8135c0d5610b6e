package io.kaas.coordinator.group;

import io.kaas.coordinator.CoordinatorTimer;
import io.kaas.wire.message.JoinGroupResponseData.JoinGroupResponseMember;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A classic group's membership and state, as Kafka's {@code ClassicGroup}. Not thread-safe: every
 * access holds the group's monitor ({@code synchronized (group)}).
 */
final class ClassicGroup {
    final String groupId;
    /** Volatile so the registry may see a DEAD group without the lock; changed only under the lock. */
    volatile GroupState state = GroupState.EMPTY;
    int generationId;
    String protocolType;
    String protocolName;
    String leaderId;
    /** When the group entered its current state (ms); -1 when unknown (a group loaded from the store). */
    long stateTimestampMs;
    final Map<String, ClassicMember> members = new LinkedHashMap<>();
    /** group.instance.id → member id. */
    final Map<String, String> staticMembers = new HashMap<>();
    /** Member ids handed out with MEMBER_ID_REQUIRED, not yet joined with them, with their expiry timers. */
    final Map<String, CoordinatorTimer.Task> pendingMembers = new HashMap<>();
    /** Members of the current generation that have not sent SyncGroup yet. */
    final Set<String> pendingSyncMembers = new HashSet<>();
    /** Set when a member joins a new group during the initial delay, which extends the delay. */
    boolean newMemberAdded;
    CoordinatorTimer.Task joinTimer;
    /** The join timer is the initial delay, which only its expiry completes. */
    boolean initialDelayActive;
    CoordinatorTimer.Task syncTimer;

    ClassicGroup(String groupId, long nowMs) {
        this.groupId = groupId;
        this.stateTimestampMs = nowMs;
    }

    boolean is(GroupState s) {
        return state == s;
    }

    void transitionTo(GroupState target, long nowMs) {
        state = target;
        stateTimestampMs = nowMs;
    }

    boolean has(String memberId) {
        return members.containsKey(memberId);
    }

    boolean isLeader(String memberId) {
        return memberId.equals(leaderId);
    }

    boolean hasStaticMember(String groupInstanceId) {
        return groupInstanceId != null && staticMembers.containsKey(groupInstanceId);
    }

    /** Whether {@code groupInstanceId} belongs to another member id than {@code memberId}. */
    boolean isStaticMemberFenced(String groupInstanceId, String memberId) {
        if (groupInstanceId == null) {
            return false;
        }
        String current = staticMembers.get(groupInstanceId);
        return current != null && !current.equals(memberId);
    }

    /** Adds a member; the first member of an empty group sets the group's protocol type. */
    void add(ClassicMember member, String memberProtocolType) {
        if (members.isEmpty()) {
            protocolType = memberProtocolType;
        }
        members.put(member.memberId, member);
        if (member.isStatic()) {
            staticMembers.put(member.groupInstanceId, member.memberId);
        }
        CoordinatorTimer.Task pending = pendingMembers.remove(member.memberId);
        if (pending != null) {
            pending.cancel();
        }
        if (leaderId == null) {
            leaderId = member.memberId;
        }
    }

    /** Removes the member (and its static id); passes leadership on if it led. */
    void remove(String memberId) {
        ClassicMember removed = members.remove(memberId);
        if (removed == null) {
            return;
        }
        removed.cancelHeartbeat();
        if (removed.isStatic() && memberId.equals(staticMembers.get(removed.groupInstanceId))) {
            staticMembers.remove(removed.groupInstanceId);
        }
        pendingSyncMembers.remove(memberId);
        if (isLeader(memberId)) {
            leaderId = members.isEmpty() ? null : members.keySet().iterator().next();
        }
    }

    /** Replaces a static member's id, keeping its position, assignment and leadership. */
    ClassicMember replaceStaticMember(String groupInstanceId, String oldMemberId, String newMemberId) {
        ClassicMember old = members.remove(oldMemberId);
        old.cancelHeartbeat();
        ClassicMember replacement = old.withMemberId(newMemberId);
        members.put(newMemberId, replacement);
        staticMembers.put(groupInstanceId, newMemberId);
        if (isLeader(oldMemberId)) {
            leaderId = newMemberId;
        }
        if (pendingSyncMembers.remove(oldMemberId)) {
            pendingSyncMembers.add(newMemberId);
        }
        return replacement;
    }

    int awaitingJoinCount() {
        int n = 0;
        for (ClassicMember m : members.values()) {
            if (m.isAwaitingJoin()) {
                n++;
            }
        }
        return n;
    }

    boolean hasAllMembersJoined() {
        return members.size() == awaitingJoinCount() && pendingMembers.isEmpty();
    }

    /** The largest rebalance timeout of the members. */
    int rebalanceTimeoutMs() {
        int max = 0;
        for (ClassicMember m : members.values()) {
            max = Math.max(max, m.rebalanceTimeoutMs);
        }
        return max;
    }

    /**
     * Whether a member with these protocols may join: an empty group takes any non-empty protocol
     * list; otherwise the type must match and one protocol must be supported by every member.
     */
    boolean supportsProtocols(String memberProtocolType, List<ClassicMember.Protocol> protocols) {
        if (members.isEmpty()) {
            return memberProtocolType != null && !memberProtocolType.isEmpty() && !protocols.isEmpty();
        }
        if (!memberProtocolType.equals(protocolType)) {
            return false;
        }
        for (ClassicMember.Protocol p : protocols) {
            if (supportedByAll(p.name(), members.values())) {
                return true;
            }
        }
        return false;
    }

    /** The protocol every member supports that most members prefer (ties: the earliest preferred). */
    String selectProtocol() {
        Collection<ClassicMember> all = members.values();
        List<String> candidates = new ArrayList<>();
        for (ClassicMember.Protocol p : all.iterator().next().protocols) {
            if (supportedByAll(p.name(), all)) {
                candidates.add(p.name());
            }
        }
        Map<String, Integer> votes = new LinkedHashMap<>();
        candidates.forEach(c -> votes.put(c, 0));
        for (ClassicMember m : all) {
            for (ClassicMember.Protocol p : m.protocols) {
                if (votes.containsKey(p.name())) {
                    votes.merge(p.name(), 1, Integer::sum);
                    break;
                }
            }
        }
        String best = null;
        int bestVotes = -1;
        for (Map.Entry<String, Integer> e : votes.entrySet()) {
            if (e.getValue() > bestVotes) {
                best = e.getKey();
                bestVotes = e.getValue();
            }
        }
        if (best == null) {
            throw new IllegalStateException("no protocol supported by every member of group " + groupId);
        }
        return best;
    }

    private static boolean supportedByAll(String protocol, Collection<ClassicMember> members) {
        for (ClassicMember m : members) {
            if (m.metadata(protocol) == null) {
                return false;
            }
        }
        return true;
    }

    /** The leader's view of the members: id, instance id and metadata for the selected protocol. */
    List<JoinGroupResponseMember> memberMetadata() {
        List<JoinGroupResponseMember> out = new ArrayList<>();
        for (ClassicMember m : members.values()) {
            out.add(new JoinGroupResponseMember().setMemberId(m.memberId).setGroupInstanceId(m.groupInstanceId)
                    .setMetadata(m.metadata(protocolName)));
        }
        return out;
    }

    /**
     * If the leader has not rejoined, makes a member that has the leader.
     *
     * @return false when no member has rejoined (or the group has no leader)
     */
    boolean maybeElectNewJoinedLeader() {
        if (leaderId == null) {
            return false;
        }
        ClassicMember leader = members.get(leaderId);
        if (leader != null && leader.isAwaitingJoin()) {
            return true;
        }
        for (ClassicMember m : members.values()) {
            if (m.isAwaitingJoin()) {
                leaderId = m.memberId;
                return true;
            }
        }
        return false;
    }

    /** Starts the next generation: CompletingRebalance with a protocol, or Empty without members. */
    void initNextGeneration(long nowMs) {
        generationId++;
        if (!members.isEmpty()) {
            protocolName = selectProtocol();
            transitionTo(GroupState.COMPLETING_REBALANCE, nowMs);
        } else {
            protocolName = null;
            transitionTo(GroupState.EMPTY, nowMs);
        }
        pendingSyncMembers.clear();
        pendingSyncMembers.addAll(members.keySet());
    }

    void cancelJoinTimer() {
        initialDelayActive = false;
        if (joinTimer != null) {
            joinTimer.cancel();
            joinTimer = null;
        }
    }

    void cancelSyncTimer() {
        if (syncTimer != null) {
            syncTimer.cancel();
            syncTimer = null;
        }
    }
}
