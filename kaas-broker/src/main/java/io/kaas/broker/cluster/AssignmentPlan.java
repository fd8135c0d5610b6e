package io.kaas.broker.cluster;

import io.kaas.api.cluster.LiveBroker;
import io.kaas.api.cluster.PartitionLeader;
import io.kaas.api.cluster.TopicAssignment;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.api.cluster.TopicRecord;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * What the controller writes next: every partition given to a live broker, balanced by count. Pure: computed from
 * the topics, the stored assignments, the live brokers and the move requests, so the controller can compute it again
 * after a conflicting write.
 * <ul>
 *   <li>a partition whose writer is live (its node registered under the broker epoch it was given to) stays where it
 *       is (no churn), unless a move request names another live broker;</li>
 *   <li>a partition without a live writer (new, its broker gone, or restarted under a new broker epoch) goes to the
 *       live broker with the fewest partitions, ties to the lowest node id;</li>
 *   <li>with {@code rebalance} (a broker joined, or a new controller took over), partitions then move from the most
 *       loaded broker to the least loaded one until every count is within one of every other; without it a partition
 *       moved on request stays where it was moved;</li>
 *   <li>every change raises the partition's leader epoch by one and carries the new writer's broker epoch.</li>
 * </ul>
 *
 * @param changes   the assignments to write, each over the version it was read as
 * @param movesDone the move requests that are carried out (or can no longer be: their target is not live), to remove
 */
public record AssignmentPlan(List<TopicAssignment> changes, List<TopicPartitionRef> movesDone) {

    public boolean isEmpty() {
        return changes.isEmpty() && movesDone.isEmpty();
    }

    /** The plan for the current state; empty when there is nothing to change or no broker is live. */
    public static AssignmentPlan of(Collection<TopicRecord> topics, Map<UUID, TopicAssignment> stored,
                                    Map<Integer, LiveBroker> live, Map<TopicPartitionRef, Integer> moves,
                                    boolean rebalance) {
        if (live.isEmpty()) {
            return new AssignmentPlan(List.of(), List.of());
        }
        List<TopicRecord> sorted = new ArrayList<>(topics);
        sorted.sort(Comparator.comparing(TopicRecord::name));
        Map<UUID, List<PartitionLeader>> next = new LinkedHashMap<>();
        Map<Integer, List<Slot>> load = new TreeMap<>();
        live.keySet().forEach(id -> load.put(id, new ArrayList<>()));
        List<Slot> orphans = new ArrayList<>();
        List<TopicPartitionRef> movesDone = new ArrayList<>();
        for (TopicRecord topic : sorted) {
            TopicAssignment current = stored.get(topic.topicId());
            List<PartitionLeader> leaders = new ArrayList<>(current == null ? List.of() : current.partitions());
            while (leaders.size() > topic.partitions()) {
                leaders.remove(leaders.size() - 1);
            }
            while (leaders.size() < topic.partitions()) {
                leaders.add(PartitionLeader.none(0));
            }
            next.put(topic.topicId(), leaders);
            for (int p = 0; p < leaders.size(); p++) {
                Slot slot = new Slot(topic.topicId(), topic.name(), p);
                PartitionLeader leader = leaders.get(p);
                TopicPartitionRef ref = new TopicPartitionRef(topic.name(), p);
                Integer target = moves.get(ref);
                if (target != null) {
                    movesDone.add(ref);
                    LiveBroker to = live.get(target);
                    if (to != null && !(isLiveWriter(leader, live) && leader.leader() == target)) {
                        leaders.set(p, leader.handedTo(to));
                        load.get(target).add(slot.asPinned());
                        continue;
                    }
                }
                if (isLiveWriter(leader, live)) {
                    load.get(leader.leader()).add(target != null ? slot.asPinned() : slot);
                } else {
                    orphans.add(slot);
                }
            }
        }
        for (Slot orphan : orphans) {
            int to = leastLoaded(load);
            List<PartitionLeader> leaders = next.get(orphan.topicId());
            leaders.set(orphan.partition(), leaders.get(orphan.partition()).handedTo(live.get(to)));
            load.get(to).add(orphan);
        }
        if (rebalance) {
            rebalance(load, next, live);
        }
        List<TopicAssignment> changes = new ArrayList<>();
        for (TopicRecord topic : sorted) {
            TopicAssignment current = stored.get(topic.topicId());
            List<PartitionLeader> leaders = next.get(topic.topicId());
            if (current == null) {
                changes.add(new TopicAssignment(topic.topicId(), topic.name(), leaders, TopicAssignment.NEW));
            } else if (!current.partitions().equals(leaders)) {
                changes.add(current.with(leaders));
            }
        }
        return new AssignmentPlan(List.copyOf(changes), List.copyOf(movesDone));
    }

    /** Whether {@code leader} names a registration that is live now. */
    public static boolean isLiveWriter(PartitionLeader leader, Map<Integer, LiveBroker> live) {
        if (!leader.hasLeader()) {
            return false;
        }
        LiveBroker broker = live.get(leader.leader());
        return broker != null && broker.brokerEpoch() == leader.leaderBrokerEpoch();
    }

    /** Moves unpinned partitions from the most to the least loaded broker until the counts are within one. */
    private static void rebalance(Map<Integer, List<Slot>> load, Map<UUID, List<PartitionLeader>> next,
                                  Map<Integer, LiveBroker> live) {
        while (true) {
            int most = mostLoaded(load);
            int least = leastLoaded(load);
            if (load.get(most).size() - load.get(least).size() <= 1) {
                return;
            }
            List<Slot> from = load.get(most);
            Slot moved = null;
            for (int i = from.size() - 1; i >= 0; i--) {
                if (!from.get(i).pinned()) {
                    moved = from.remove(i);
                    break;
                }
            }
            if (moved == null) {
                return;
            }
            List<PartitionLeader> leaders = next.get(moved.topicId());
            PartitionLeader before = leaders.get(moved.partition());
            leaders.set(moved.partition(), before.handedTo(live.get(least)));
            load.get(least).add(moved.asPinned());
        }
    }

    private static int leastLoaded(Map<Integer, List<Slot>> load) {
        int best = -1;
        for (Map.Entry<Integer, List<Slot>> e : load.entrySet()) {
            if (best == -1 || e.getValue().size() < load.get(best).size()) {
                best = e.getKey();
            }
        }
        return best;
    }

    private static int mostLoaded(Map<Integer, List<Slot>> load) {
        int best = -1;
        for (Map.Entry<Integer, List<Slot>> e : load.entrySet()) {
            if (best == -1 || e.getValue().size() >= load.get(best).size()) {
                best = e.getKey();
            }
        }
        return best;
    }

    /** One partition on a broker's list; a pinned one (moved in this plan, or by request) is not moved again. */
    private record Slot(UUID topicId, String topic, int partition, boolean pinned) {
        Slot(UUID topicId, String topic, int partition) {
            this(topicId, topic, partition, false);
        }

        Slot asPinned() {
            return new Slot(topicId, topic, partition, true);
        }
    }

    /** The broker counts a plan leads to, for logs and tests. */
    public static Map<Integer, Integer> counts(Collection<TopicAssignment> assignments) {
        Map<Integer, Integer> out = new HashMap<>();
        for (TopicAssignment a : assignments) {
            for (PartitionLeader l : a.partitions()) {
                out.merge(l.leader(), 1, Integer::sum);
            }
        }
        return out;
    }
}
