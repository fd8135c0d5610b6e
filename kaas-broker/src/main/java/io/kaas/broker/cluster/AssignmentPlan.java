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
import java.util.Set;
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
 * A partition moves from a live writer to another broker in two steps, a <b>hand-over</b>: this plan
 * <em>releases</em> it (no leader, the next epoch), and a later plan gives it to the target once the controller has
 * held it released for a lease ({@code held}): the live writer may act on the assignment it read until its lease,
 * renewed only by round trips that show it every earlier assignment change, runs out; so no broker acknowledges a
 * write for a partition after another broker opened it. A partition whose writer is not live is given at once: its
 * session ended, and its lease before that.
 *
 * @param changes   the assignments to write, each over the version it was read as
 * @param movesDone the move requests that are carried out (or can no longer be: their target is not live), to remove
 */
public record AssignmentPlan(List<TopicAssignment> changes, List<TopicPartitionRef> movesDone) {

    public boolean isEmpty() {
        return changes.isEmpty() && movesDone.isEmpty();
    }

    /** The plan for the current state with no partition held released. */
    public static AssignmentPlan of(Collection<TopicRecord> topics, Map<UUID, TopicAssignment> stored,
                                    Map<Integer, LiveBroker> live, Map<TopicPartitionRef, Integer> moves,
                                    boolean rebalance) {
        return of(topics, stored, live, moves, rebalance, Set.of());
    }

    /**
     * The plan for the current state; empty when there is nothing to change or no broker is live.
     *
     * @param held released partitions whose hand-over is not over yet: they stay without a leader
     */
    public static AssignmentPlan of(Collection<TopicRecord> topics, Map<UUID, TopicAssignment> stored,
                                    Map<Integer, LiveBroker> live, Map<TopicPartitionRef, Integer> moves,
                                    boolean rebalance, Set<TopicPartitionRef> held) {
        if (live.isEmpty()) {
            return new AssignmentPlan(List.of(), List.of());
        }
        List<TopicRecord> sorted = new ArrayList<>(topics);
        sorted.sort(Comparator.comparing(TopicRecord::name));
        Map<UUID, List<PartitionLeader>> next = new LinkedHashMap<>();
        Map<Integer, List<Slot>> load = new TreeMap<>();
        live.keySet().forEach(id -> load.put(id, new ArrayList<>()));
        List<Slot> orphans = new ArrayList<>();
        List<Slot> inHandOver = new ArrayList<>();
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
                LiveBroker to = target == null ? null : live.get(target);
                if (target != null && (to == null || isLiveWriter(leader, live) && leader.leader() == target)) {
                    movesDone.add(ref); // nothing to do: its target is gone, or it is there
                }
                if (to != null && !(isLiveWriter(leader, live) && leader.leader() == target)) {
                    if (isLiveWriter(leader, live)) {
                        leaders.set(p, release(leader)); // first step of the hand-over
                    } else if (!held.contains(ref)) {
                        leaders.set(p, leader.handedTo(to));
                        movesDone.add(ref);
                    }
                    load.get(target).add(slot.asPinned());
                    continue;
                }
                if (isLiveWriter(leader, live)) {
                    load.get(leader.leader()).add(target != null ? slot.asPinned() : slot);
                } else if (held.contains(ref)) {
                    inHandOver.add(slot);
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
        // a partition in its hand-over counts where it will go (the least loaded broker), so no other moves for it
        for (Slot slot : inHandOver) {
            load.get(leastLoaded(load)).add(slot.asPinned());
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

    /** The first step of a hand-over: no leader, at the epoch after {@code leader}'s. */
    static PartitionLeader release(PartitionLeader leader) {
        return PartitionLeader.none(leader.leaderEpoch() + 1);
    }

    /** Whether {@code leader} is a released partition (no leader after it had one), waiting for its next writer. */
    public static boolean isReleased(PartitionLeader leader) {
        return !leader.hasLeader() && leader.leaderEpoch() > 0;
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
            // from a live writer: released now, given to the least loaded broker once the hand-over is over
            leaders.set(moved.partition(), isLiveWriter(before, live) ? release(before) : before.handedTo(live.get(least)));
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
