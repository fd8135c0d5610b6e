package io.kaas.coordinator.group;

import io.kaas.coordinator.group.assignor.ConsumerAssignors;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * A KIP-848 consumer group: members, the group epoch, the target assignment and its epoch, and which
 * member owns each partition (assigned or pending revocation), as Kafka's {@code ConsumerGroup}. Not
 * thread-safe: every access holds the group's monitor.
 */
final class ConsumerGroup {

    /** Kafka's consumer group states, with their wire names. */
    enum State {
        EMPTY("Empty"), ASSIGNING("Assigning"), RECONCILING("Reconciling"), STABLE("Stable"), DEAD("Dead");

        final String kafkaName;

        State(String kafkaName) {
            this.kafkaName = kafkaName;
        }
    }

    final String groupId;
    volatile boolean dead;
    int groupEpoch;
    int assignmentEpoch;
    /** When the group last became empty (for offset expiry); its creation time at first. */
    long emptySinceMs;
    final Map<String, ConsumerMember> members = new LinkedHashMap<>();
    /** instance id → member id. */
    final Map<String, String> staticMembers = new HashMap<>();
    final Map<String, Map<UUID, Set<Integer>>> targetAssignment = new HashMap<>();
    /** topic id → partition → owning member id. */
    final Map<UUID, Map<Integer, String>> owners = new HashMap<>();
    /** The subscribed topics' metadata (name → id and partition count) the target was computed from. */
    Map<String, ConsumerAssignors.Topic> subscriptionMetadata = Map.of();
    /** When the target assignment was last computed, 0 if never (Kafka's assignment timestamp). */
    long assignmentTimestampMs;
    /**
     * Each regular expression a member subscribes to, as last resolved: the names of the topics it matched
     * (Kafka's resolved regular expressions). A regex no member subscribes to any more is dropped.
     */
    final Map<String, Set<String>> resolvedRegexes = new HashMap<>();
    /** When {@link #resolvedRegexes} were last resolved (meaningful while there are any). */
    long regexesResolvedAtMs;
    /** The ids of the topics that existed at that resolution: a topic created since asks for a new one. */
    Set<UUID> topicIdsAtResolution = Set.of();
    /** Whether a resolution of the group's regexes is scheduled and has not finished yet. */
    boolean regexResolutionPending;

    ConsumerGroup(String groupId, long nowMs) {
        this.groupId = groupId;
        this.emptySinceMs = nowMs;
    }

    State state() {
        if (dead) {
            return State.DEAD;
        }
        if (members.isEmpty()) {
            return State.EMPTY;
        }
        if (groupEpoch > assignmentEpoch) {
            return State.ASSIGNING;
        }
        for (ConsumerMember m : members.values()) {
            if (m.memberEpoch != assignmentEpoch || m.state != ConsumerMember.State.STABLE) {
                return State.RECONCILING;
            }
        }
        return State.STABLE;
    }

    /** The member owning a partition, or null when it is free. */
    String owner(UUID topicId, int partition) {
        Map<Integer, String> byPartition = owners.get(topicId);
        return byPartition == null ? null : byPartition.get(partition);
    }

    /** Records what a member owns now: its assigned and pending-revocation partitions. */
    void updateOwnership(ConsumerMember m, Map<UUID, Set<Integer>> oldAssigned, Map<UUID, Set<Integer>> oldPending) {
        release(m.memberId, oldAssigned);
        release(m.memberId, oldPending);
        claim(m.memberId, m.assigned);
        claim(m.memberId, m.pendingRevocation);
    }

    void releaseAll(ConsumerMember m) {
        release(m.memberId, m.assigned);
        release(m.memberId, m.pendingRevocation);
    }

    private void claim(String memberId, Map<UUID, Set<Integer>> partitions) {
        partitions.forEach((t, ps) -> ps.forEach(p -> owners.computeIfAbsent(t, k -> new HashMap<>()).put(p, memberId)));
    }

    private void release(String memberId, Map<UUID, Set<Integer>> partitions) {
        partitions.forEach((t, ps) -> {
            Map<Integer, String> byPartition = owners.get(t);
            if (byPartition == null) {
                return;
            }
            ps.forEach(p -> byPartition.remove(p, memberId));
            if (byPartition.isEmpty()) {
                owners.remove(t);
            }
        });
    }

    /** The number of members subscribed to {@code regex}. */
    int regexSubscribers(String regex) {
        int n = 0;
        for (ConsumerMember m : members.values()) {
            if (regex.equals(m.subscribedTopicRegex)) {
                n++;
            }
        }
        return n;
    }

    /** The regular expressions the members subscribe to. */
    Set<String> subscribedRegexes() {
        Set<String> out = new java.util.HashSet<>();
        for (ConsumerMember m : members.values()) {
            if (m.subscribedTopicRegex != null) {
                out.add(m.subscribedTopicRegex);
            }
        }
        return out;
    }

    /** The server assignor in use: the one most members ask for, else the configured default. */
    String assignor(String defaultAssignor) {
        Map<String, Integer> votes = new HashMap<>();
        for (ConsumerMember m : members.values()) {
            if (m.serverAssignor != null) {
                votes.merge(m.serverAssignor, 1, Integer::sum);
            }
        }
        String best = defaultAssignor;
        int bestVotes = 0;
        for (Map.Entry<String, Integer> e : new java.util.TreeMap<>(votes).entrySet()) {
            if (e.getValue() > bestVotes) {
                best = e.getKey();
                bestVotes = e.getValue();
            }
        }
        return best;
    }
}
