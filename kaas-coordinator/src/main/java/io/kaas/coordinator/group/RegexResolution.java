package io.kaas.coordinator.group;

import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.TopicRecord;
import io.kaas.coordinator.CoordinatorTimer;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The regular expressions ({@code SubscribedTopicRegex}) of KIP-848 consumer groups, resolved as Kafka 4.4's
 * group coordinator resolves them: off the heartbeat, all of a group's expressions at once, then the group
 * epoch is bumped if what they match changed, so a later heartbeat gets the new target assignment. The
 * heartbeat that brings a new expression is answered with the assignment of the group's other subscriptions
 * (its literal topic names first). A group's expressions are resolved again at a heartbeat when one of them
 * is not resolved yet, a topic was created since, or the last resolution is older than
 * {@code group.consumer.regex.refresh.interval.ms}; never twice within {@link #MIN_REFRESH_INTERVAL_MS}.
 *
 * <p>Expressions are compiled with {@link java.util.regex} (Kafka uses RE2J; the syntax is the same for the
 * expressions consumers use) and must match the whole topic name. Methods taking a group are called with the
 * group's monitor held; the resolution itself runs on the coordinator's timer and takes the monitor only to
 * apply its result.
 */
final class RegexResolution {
    private static final Logger LOG = LoggerFactory.getLogger(RegexResolution.class);

    /** Kafka's {@code REGEX_BATCH_REFRESH_MIN_INTERVAL_MS}: the least time between two resolutions of a group. */
    static final long MIN_REFRESH_INTERVAL_MS = 10_000;

    /** What a member's new subscription does to its group (Kafka's {@code UpdateRegularExpressionStatus}). */
    enum Change {
        /** Same expression as before. */
        NONE,
        /** Another expression, not resolved yet: the group epoch moves when it is. */
        UPDATED,
        /** Another expression, already resolved (or none any more): the group epoch moves now. */
        UPDATED_AND_RESOLVED
    }

    private final ClusterStateStore store;
    private final CoordinatorTimer timer;
    private final long refreshIntervalMs;
    private final Consumer<ConsumerGroup> onChanged;

    /**
     * @param refreshIntervalMs {@code group.consumer.regex.refresh.interval.ms}
     * @param onChanged         what a group whose resolution changed what its expressions match does, under its
     *                          monitor (recomputes its subscription metadata and bumps its epoch)
     */
    RegexResolution(ClusterStateStore store, CoordinatorTimer timer, long refreshIntervalMs,
                    Consumer<ConsumerGroup> onChanged) {
        this.store = store;
        this.timer = timer;
        this.refreshIntervalMs = refreshIntervalMs;
        this.onChanged = onChanged;
    }

    /** The compiled expression; INVALID_REGULAR_EXPRESSION with Kafka's message if it is not one. */
    static Pattern compile(String regex) {
        try {
            return Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new GroupException(Errors.INVALID_REGULAR_EXPRESSION, "SubscribedTopicRegex `" + regex
                    + "` is not a valid regular expression: " + e.getDescription() + ".");
        }
    }

    /**
     * After {@code member} (already updated) changed its expression from {@code oldRegex}: drops the old
     * expression's resolution if no member subscribes to it any more, and says whether the group epoch must move.
     *
     * @return the change, and whether a resolution is needed (a new expression nobody else subscribes to)
     */
    Change onMemberUpdate(ConsumerGroup group, ConsumerMember member, String oldRegex) {
        String newRegex = member.subscribedTopicRegex;
        if (Objects.equals(oldRegex, newRegex)) {
            return Change.NONE;
        }
        LOG.atDebug().addKeyValue("group", group.groupId).addKeyValue("member", member.memberId)
                .log("Member {} of consumer group {} subscribes to regex {}", member.memberId, group.groupId, newRegex);
        if (oldRegex != null && group.regexSubscribers(oldRegex) == 0) {
            group.resolvedRegexes.remove(oldRegex);
        }
        if (newRegex != null) {
            return group.resolvedRegexes.containsKey(newRegex) ? Change.UPDATED_AND_RESOLVED : Change.UPDATED;
        }
        return oldRegex != null ? Change.UPDATED_AND_RESOLVED : Change.UPDATED;
    }

    /** Drops the resolutions of the expressions no member subscribes to any more (a member left). */
    static void forgetUnsubscribed(ConsumerGroup group) {
        group.resolvedRegexes.keySet().retainAll(group.subscribedRegexes());
    }

    /**
     * At a heartbeat: schedules a resolution of all the group's expressions if one is due (Kafka's conditions, in
     * its order). The matched topics are those {@code admitted} accepts (Kafka: those the principal of the member
     * whose heartbeat triggers the resolution may DESCRIBE).
     */
    void maybeRefresh(ConsumerGroup group, Predicate<String> admitted) {
        Set<String> regexes = group.subscribedRegexes();
        if (regexes.isEmpty() || group.regexResolutionPending) {
            return;
        }
        long now = timer.nowMs();
        boolean resolvedBefore = !group.resolvedRegexes.isEmpty();
        if (resolvedBefore && now <= group.regexesResolvedAtMs + MIN_REFRESH_INTERVAL_MS) {
            return;
        }
        boolean due = !group.resolvedRegexes.keySet().equals(regexes)
                || (resolvedBefore && now > group.regexesResolvedAtMs + refreshIntervalMs)
                || topicCreatedSince(group);
        if (!due) {
            return;
        }
        group.regexResolutionPending = true;
        Set<String> toResolve = Set.copyOf(regexes);
        timer.schedule(0, () -> resolve(group, toResolve, admitted));
    }

    private boolean topicCreatedSince(ConsumerGroup group) {
        for (TopicRecord t : store.topics()) {
            if (!group.topicIdsAtResolution.contains(t.topicId())) {
                return true;
            }
        }
        return false;
    }

    private void resolve(ConsumerGroup group, Set<String> regexes, Predicate<String> admitted) {
        long began = System.nanoTime();
        Map<String, Set<String>> resolved = new HashMap<>();
        Set<UUID> topicIds = new HashSet<>();
        try {
            Collection<TopicRecord> topics = store.topics();
            List<Pattern> patterns = new ArrayList<>();
            for (String regex : regexes) {
                resolved.put(regex, new HashSet<>());
                patterns.add(compile(regex));
            }
            for (TopicRecord t : topics) {
                topicIds.add(t.topicId());
                for (Pattern p : patterns) {
                    if (p.matcher(t.name()).matches() && admitted.test(t.name())) {
                        resolved.get(p.pattern()).add(t.name());
                    }
                }
            }
        } catch (RuntimeException e) {
            LOG.atError().setCause(e).addKeyValue("group", group.groupId)
                    .log("Could not resolve the regular expressions {} of consumer group {}", regexes, group.groupId);
            synchronized (group) {
                group.regexResolutionPending = false;
            }
            return;
        }
        synchronized (group) {
            group.regexResolutionPending = false;
            if (group.dead) {
                return;
            }
            boolean changed = false;
            for (Map.Entry<String, Set<String>> e : resolved.entrySet()) {
                if (group.regexSubscribers(e.getKey()) == 0) {
                    continue;
                }
                Set<String> before = group.resolvedRegexes.put(e.getKey(), Set.copyOf(e.getValue()));
                changed |= !e.getValue().equals(before);
            }
            group.regexesResolvedAtMs = timer.nowMs();
            group.topicIdsAtResolution = Set.copyOf(topicIds);
            LOG.atInfo().addKeyValue("group", group.groupId)
                    .log("Resolved the regular expressions {} of consumer group {} over {} topics in {} ms{}",
                            regexes, group.groupId, topicIds.size(), (System.nanoTime() - began) / 1_000_000,
                            changed ? ": they match other topics now" : "");
            if (changed) {
                onChanged.accept(group);
            }
        }
    }
}
