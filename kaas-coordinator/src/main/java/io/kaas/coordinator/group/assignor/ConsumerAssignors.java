package io.kaas.coordinator.group.assignor;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The server-side assignors of KIP-848 consumer groups, by the names {@code group.consumer.assignors} and the
 * client's {@code group.remote.assignor} use: {@code uniform} (balanced and sticky, Kafka's default) and
 * {@code range} (contiguous ranges per topic, co-partitioned topics line up). Pure functions of their input.
 */
public final class ConsumerAssignors {
    public static final String UNIFORM = "uniform";
    public static final String RANGE = "range";
    public static final List<String> NAMES = List.of(UNIFORM, RANGE);

    private ConsumerAssignors() {
    }

    /** One member as an assignor sees it: what it subscribes to (existing topics only) and its current target. */
    public record Member(String memberId, Set<UUID> topics, Map<UUID, Set<Integer>> current) {
    }

    /** A topic as an assignor sees it; {@code name} orders the topics. */
    public record Topic(UUID id, String name, int partitions) {
    }

    /** The short name for a configured assignor ({@code uniform}, Kafka's class name…), or null if unknown. */
    public static String shortName(String configured) {
        return switch (configured) {
            case UNIFORM, "org.apache.kafka.coordinator.group.assignor.UniformAssignor" -> UNIFORM;
            case RANGE, "org.apache.kafka.coordinator.group.assignor.RangeAssignor" -> RANGE;
            default -> null;
        };
    }

    /** The target assignment of every member (members without partitions map to an empty assignment). */
    public static Map<String, Map<UUID, Set<Integer>>> assign(String assignor, List<Member> members, Map<UUID, Topic> topics) {
        List<Member> sorted = new ArrayList<>(members);
        sorted.sort(Comparator.comparing(Member::memberId));
        return RANGE.equals(assignor) ? range(sorted, topics) : uniform(sorted, topics);
    }

    /**
     * Range: for each topic, its subscribers in member id order each take a contiguous range of
     * {@code partitions / subscribers} partitions, the first {@code partitions % subscribers} one more.
     */
    private static Map<String, Map<UUID, Set<Integer>>> range(List<Member> members, Map<UUID, Topic> topics) {
        Map<String, Map<UUID, Set<Integer>>> out = empty(members);
        for (Topic topic : sortedTopics(topics)) {
            List<Member> subscribers = members.stream().filter(m -> m.topics().contains(topic.id())).toList();
            if (subscribers.isEmpty()) {
                continue;
            }
            int per = topic.partitions() / subscribers.size();
            int extra = topic.partitions() % subscribers.size();
            int next = 0;
            for (int i = 0; i < subscribers.size(); i++) {
                int count = per + (i < extra ? 1 : 0);
                for (int p = next; p < next + count; p++) {
                    out.get(subscribers.get(i).memberId()).computeIfAbsent(topic.id(), k -> new TreeSet<>()).add(p);
                }
                next += count;
            }
        }
        return out;
    }

    /**
     * Uniform: every member keeps the partitions of its current target that it may still have, the rest go
     * one by one to the least loaded subscriber, then partitions move from the most to the least loaded
     * subscriber until no move can narrow the gap; with identical subscriptions the counts differ by at most one.
     */
    private static Map<String, Map<UUID, Set<Integer>>> uniform(List<Member> members, Map<UUID, Topic> topics) {
        Map<String, Map<UUID, Set<Integer>>> out = empty(members);
        Map<String, Integer> load = new HashMap<>();
        Map<String, Member> byId = new HashMap<>();
        members.forEach(m -> {
            load.put(m.memberId(), 0);
            byId.put(m.memberId(), m);
        });
        Map<UUID, Set<Integer>> taken = new HashMap<>();
        // 1. stickiness: keep what is still valid, once, within each member's fair share of its subscription
        for (Member m : members) {
            m.current().forEach((topicId, partitions) -> {
                Topic t = topics.get(topicId);
                if (t == null || !m.topics().contains(topicId)) {
                    return;
                }
                for (int p : partitions) {
                    if (p < t.partitions() && taken.computeIfAbsent(topicId, k -> new TreeSet<>()).add(p)) {
                        out.get(m.memberId()).computeIfAbsent(topicId, k -> new TreeSet<>()).add(p);
                        load.merge(m.memberId(), 1, Integer::sum);
                    }
                }
            });
        }
        // 2. the unassigned partitions to the least loaded subscriber
        for (Topic t : sortedTopics(topics)) {
            List<Member> subscribers = members.stream().filter(m -> m.topics().contains(t.id())).toList();
            if (subscribers.isEmpty()) {
                continue;
            }
            for (int p = 0; p < t.partitions(); p++) {
                if (taken.getOrDefault(t.id(), Set.of()).contains(p)) {
                    continue;
                }
                Member target = leastLoaded(subscribers, load);
                out.get(target.memberId()).computeIfAbsent(t.id(), k -> new TreeSet<>()).add(p);
                load.merge(target.memberId(), 1, Integer::sum);
            }
        }
        // 3. balance: move a partition from a member to a subscriber with at least two fewer
        boolean moved = true;
        int guard = 0;
        while (moved && guard++ < 10_000) {
            moved = false;
            List<Member> byLoad = new ArrayList<>(members);
            byLoad.sort(Comparator.comparing((Member m) -> -load.get(m.memberId())).thenComparing(Member::memberId));
            outer:
            for (Member from : byLoad) {
                for (Map.Entry<UUID, Set<Integer>> e : new TreeMap<>(out.get(from.memberId())).entrySet()) {
                    List<Member> candidates = members.stream().filter(m -> m.topics().contains(e.getKey())
                            && load.get(m.memberId()) < load.get(from.memberId()) - 1).toList();
                    if (candidates.isEmpty() || e.getValue().isEmpty()) {
                        continue;
                    }
                    Member to = leastLoaded(candidates, load);
                    int p = ((TreeSet<Integer>) e.getValue()).last();
                    e.getValue().remove(p);
                    if (e.getValue().isEmpty()) {
                        out.get(from.memberId()).remove(e.getKey());
                    }
                    out.get(to.memberId()).computeIfAbsent(e.getKey(), k -> new TreeSet<>()).add(p);
                    load.merge(from.memberId(), -1, Integer::sum);
                    load.merge(to.memberId(), 1, Integer::sum);
                    moved = true;
                    break outer;
                }
            }
        }
        return out;
    }

    private static Member leastLoaded(List<Member> candidates, Map<String, Integer> load) {
        Member best = candidates.get(0);
        for (Member m : candidates) {
            if (load.get(m.memberId()) < load.get(best.memberId())) {
                best = m;
            }
        }
        return best;
    }

    private static Map<String, Map<UUID, Set<Integer>>> empty(List<Member> members) {
        Map<String, Map<UUID, Set<Integer>>> out = new HashMap<>();
        members.forEach(m -> out.put(m.memberId(), new HashMap<>()));
        return out;
    }

    private static List<Topic> sortedTopics(Map<UUID, Topic> topics) {
        List<Topic> out = new ArrayList<>(topics.values());
        out.sort(Comparator.comparing(Topic::name));
        return out;
    }
}
