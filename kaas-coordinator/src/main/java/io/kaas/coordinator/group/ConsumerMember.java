package io.kaas.coordinator.group;

import io.kaas.coordinator.CoordinatorTimer;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** One member of a KIP-848 consumer group. Guarded by its group's monitor. */
final class ConsumerMember {

    /** Kafka's member states during reconciliation. */
    enum State {
        /** Owns its assignment for its epoch. */
        STABLE,
        /** Must revoke {@link #pendingRevocation} before it may move on. */
        UNREVOKED_PARTITIONS,
        /** Waits for partitions of its target that another member still owns. */
        UNRELEASED_PARTITIONS
    }

    /** The epoch of a static member that left and will come back ({@code -2}). */
    static final int LEAVE_STATIC_EPOCH = -2;
    /** The epoch with which a member leaves ({@code -1}). */
    static final int LEAVE_EPOCH = -1;

    final String memberId;
    String instanceId;
    String rackId;
    String clientId;
    String clientHost;
    int rebalanceTimeoutMs;
    List<String> subscribedTopicNames = List.of();
    String subscribedTopicRegex;
    String serverAssignor;
    int memberEpoch;
    int previousMemberEpoch;
    State state = State.STABLE;
    /** The partitions it may use now. */
    Map<UUID, Set<Integer>> assigned = new HashMap<>();
    /** The partitions it must give up (still its own until it reports them gone). */
    Map<UUID, Set<Integer>> pendingRevocation = new HashMap<>();
    CoordinatorTimer.Task sessionTimer;
    CoordinatorTimer.Task rebalanceTimer;
    /** Bumped whenever a timer is replaced, so a stale timer that already fired does nothing. */
    long timerEpoch;

    ConsumerMember(String memberId) {
        this.memberId = memberId;
    }

    /** A copy under a new member id: a static member replaced by its next incarnation. */
    ConsumerMember withMemberId(String newMemberId) {
        ConsumerMember m = new ConsumerMember(newMemberId);
        m.instanceId = instanceId;
        m.rackId = rackId;
        m.clientId = clientId;
        m.clientHost = clientHost;
        m.rebalanceTimeoutMs = rebalanceTimeoutMs;
        m.subscribedTopicNames = subscribedTopicNames;
        m.subscribedTopicRegex = subscribedTopicRegex;
        m.serverAssignor = serverAssignor;
        m.memberEpoch = memberEpoch;
        m.previousMemberEpoch = previousMemberEpoch;
        m.state = state;
        m.assigned = copy(assigned);
        m.pendingRevocation = copy(pendingRevocation);
        return m;
    }

    void updateEpoch(int epoch) {
        if (epoch != memberEpoch) {
            previousMemberEpoch = memberEpoch;
            memberEpoch = epoch;
        }
    }

    void cancelTimers() {
        timerEpoch++;
        if (sessionTimer != null) {
            sessionTimer.cancel();
            sessionTimer = null;
        }
        cancelRebalanceTimer();
    }

    void cancelRebalanceTimer() {
        if (rebalanceTimer != null) {
            rebalanceTimer.cancel();
            rebalanceTimer = null;
        }
    }

    static Map<UUID, Set<Integer>> copy(Map<UUID, Set<Integer>> assignment) {
        Map<UUID, Set<Integer>> out = new HashMap<>();
        assignment.forEach((t, ps) -> {
            if (!ps.isEmpty()) {
                out.put(t, new HashSet<>(ps));
            }
        });
        return out;
    }

    static boolean containsAll(Map<UUID, Set<Integer>> outer, Map<UUID, Set<Integer>> inner) {
        for (Map.Entry<UUID, Set<Integer>> e : inner.entrySet()) {
            if (!outer.getOrDefault(e.getKey(), Set.of()).containsAll(e.getValue())) {
                return false;
            }
        }
        return true;
    }

    static int count(Map<UUID, Set<Integer>> assignment) {
        return assignment.values().stream().mapToInt(Set::size).sum();
    }
}
