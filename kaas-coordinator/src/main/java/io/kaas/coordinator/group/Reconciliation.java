package io.kaas.coordinator.group;

import io.kaas.coordinator.group.ConsumerMember.State;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Moves one member towards its target assignment, as Kafka's {@code CurrentAssignmentBuilder}: partitions
 * leaving the member are revoked first (the member keeps its epoch and waits in UNREVOKED_PARTITIONS
 * until its heartbeat no longer reports them); only then does it take the target epoch and the new
 * partitions, each one only once no other member owns it (UNRELEASED_PARTITIONS until then). Only partitions
 * of topics the member subscribes to are given; when its subscription changes, the partitions of the topics
 * it left are revoked at once, before any new target. Called under the group's monitor.
 */
final class Reconciliation {
    private Reconciliation() {
    }

    /**
     * Reconciles {@code m} with the group's target and updates the group's partition ownership.
     *
     * @param owned               the partitions the member reported owning, or null when it did not say
     * @param subscribed          the ids of the topics the member subscribes to
     * @param subscriptionChanged whether this heartbeat changed the member's subscription
     */
    static void reconcile(ConsumerGroup group, ConsumerMember m, Map<UUID, Set<Integer>> owned, Set<UUID> subscribed,
                          boolean subscriptionChanged) {
        Map<UUID, Set<Integer>> oldAssigned = ConsumerMember.copy(m.assigned);
        Map<UUID, Set<Integer>> oldPending = ConsumerMember.copy(m.pendingRevocation);
        Map<UUID, Set<Integer>> target = new HashMap<>(group.targetAssignment.getOrDefault(m.memberId, Map.of()));
        target.keySet().retainAll(subscribed);
        int targetEpoch = group.assignmentEpoch;
        switch (m.state) {
            case STABLE -> {
                if (m.memberEpoch != targetEpoch) {
                    next(group, m, m.memberEpoch, target, targetEpoch, owned);
                } else if (subscriptionChanged) {
                    revokeUnsubscribed(m, subscribed);
                }
            }
            case UNREVOKED_PARTITIONS -> {
                if (!ownsAny(owned, m.pendingRevocation)) {
                    next(group, m, Math.min(m.memberEpoch + 1, targetEpoch), target, targetEpoch, owned);
                } else if (subscriptionChanged) {
                    revokeUnsubscribed(m, subscribed);
                }
            }
            case UNRELEASED_PARTITIONS -> next(group, m, m.memberEpoch, target, targetEpoch, owned);
            default -> throw new IllegalStateException("unknown member state " + m.state);
        }
        group.updateOwnership(m, oldAssigned, oldPending);
    }

    /** Kafka's {@code updateCurrentAssignment}: the partitions of topics the member left are to be revoked now. */
    private static void revokeUnsubscribed(ConsumerMember m, Set<UUID> subscribed) {
        Map<UUID, Set<Integer>> kept = new HashMap<>();
        Map<UUID, Set<Integer>> revoking = ConsumerMember.copy(m.pendingRevocation);
        m.assigned.forEach((topic, ps) -> {
            if (subscribed.contains(topic)) {
                put(kept, topic, new HashSet<>(ps));
            } else if (!ps.isEmpty()) {
                revoking.computeIfAbsent(topic, k -> new HashSet<>()).addAll(ps);
            }
        });
        if (kept.equals(ConsumerMember.copy(m.assigned))) {
            return;
        }
        m.assigned = kept;
        m.pendingRevocation = revoking;
        m.state = State.UNREVOKED_PARTITIONS;
    }

    private static void next(ConsumerGroup group, ConsumerMember m, int revokingEpoch, Map<UUID, Set<Integer>> target,
                             int targetEpoch, Map<UUID, Set<Integer>> owned) {
        boolean unreleased = false;
        Map<UUID, Set<Integer>> assigned = new HashMap<>();
        Map<UUID, Set<Integer>> revoking = new HashMap<>();
        Map<UUID, Set<Integer>> adding = new HashMap<>();
        Set<UUID> topics = new HashSet<>(target.keySet());
        topics.addAll(m.assigned.keySet());
        for (UUID topic : topics) {
            Set<Integer> want = target.getOrDefault(topic, Set.of());
            Set<Integer> have = m.assigned.getOrDefault(topic, Set.of());
            Set<Integer> keep = new HashSet<>(have);
            keep.retainAll(want);
            Set<Integer> revoke = new HashSet<>(have);
            revoke.removeAll(keep);
            Set<Integer> add = new HashSet<>(want);
            add.removeAll(keep);
            unreleased |= add.removeIf(p -> {
                String owner = group.owner(topic, p);
                return owner != null && !owner.equals(m.memberId);
            });
            put(assigned, topic, keep);
            put(revoking, topic, revoke);
            put(adding, topic, add);
        }
        if (!revoking.isEmpty() && ownsAny(owned, revoking)) {
            m.state = State.UNREVOKED_PARTITIONS;
            m.updateEpoch(revokingEpoch);
            m.assigned = assigned;
            m.pendingRevocation = revoking;
            return;
        }
        adding.forEach((t, ps) -> assigned.computeIfAbsent(t, k -> new HashSet<>()).addAll(ps));
        m.state = unreleased ? State.UNRELEASED_PARTITIONS : State.STABLE;
        m.updateEpoch(targetEpoch);
        m.assigned = assigned;
        m.pendingRevocation = new HashMap<>();
    }

    private static void put(Map<UUID, Set<Integer>> map, UUID topic, Set<Integer> partitions) {
        if (!partitions.isEmpty()) {
            map.put(topic, partitions);
        }
    }

    /** Whether the reported partitions include any of {@code revoking}; not knowing counts as yes. */
    static boolean ownsAny(Map<UUID, Set<Integer>> owned, Map<UUID, Set<Integer>> revoking) {
        if (owned == null) {
            return true;
        }
        for (Map.Entry<UUID, Set<Integer>> e : owned.entrySet()) {
            Set<Integer> pending = revoking.getOrDefault(e.getKey(), Set.of());
            for (int p : e.getValue()) {
                if (pending.contains(p)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The request's owned partitions as a map, or null when absent. */
    static Map<UUID, Set<Integer>> owned(List<io.kaas.wire.message.ConsumerGroupHeartbeatRequestData.TopicPartitions> tps) {
        if (tps == null) {
            return null;
        }
        Map<UUID, Set<Integer>> out = new HashMap<>();
        for (var tp : tps) {
            out.computeIfAbsent(tp.topicId(), k -> new HashSet<>()).addAll(tp.partitions());
        }
        return out;
    }
}
