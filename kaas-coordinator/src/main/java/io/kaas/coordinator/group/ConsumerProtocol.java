package io.kaas.coordinator.group;

import io.kaas.coordinator.CoordinatorTimer;
import io.kaas.coordinator.group.assignor.ConsumerAssignors;
import io.kaas.wire.protocol.Errors;
import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.TopicRecord;
import io.kaas.coordinator.group.ConsumerMember.State;
import io.kaas.wire.message.ConsumerGroupHeartbeatRequestData;
import io.kaas.wire.message.ConsumerGroupHeartbeatResponseData;
import io.kaas.wire.message.ConsumerGroupHeartbeatResponseData.Assignment;
import io.kaas.wire.message.ConsumerGroupHeartbeatResponseData.TopicPartitions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The KIP-848 consumer protocol (ConsumerGroupHeartbeat) on one group at a time, following Kafka's
 * {@code GroupMetadataManager.consumerGroupHeartbeat}: member epochs, the group epoch, the target
 * assignment computed by the server-side assignor, reconciliation ({@link Reconciliation}), the session
 * and rebalance timeouts. Every method taking a group is called with the group's monitor held.
 *
 * <p>As in Kafka 4.4, a target assignment is computed at most once per {@code group.consumer.assignment.interval.ms}
 * (a heartbeat in between is answered from the current target, less the topics its member no longer subscribes
 * to), and regular expressions ({@code SubscribedTopicRegex}) are resolved off the heartbeat
 * ({@link RegexResolution}).
 */
final class ConsumerProtocol {
    private static final Logger LOG = LoggerFactory.getLogger(ConsumerProtocol.class);

    private final GroupCoordinatorConfig config;
    private final CoordinatorTimer timer;
    private final ClusterStateStore store;
    private final GroupConfigs groupConfigs;
    private final RegexResolution regexes;

    ConsumerProtocol(GroupCoordinatorConfig config, CoordinatorTimer timer, ClusterStateStore store, GroupConfigs groupConfigs) {
        this.config = config;
        this.timer = timer;
        this.store = store;
        this.groupConfigs = groupConfigs;
        this.regexes = new RegexResolution(store, timer, config.consumerRegexRefreshIntervalMs(), this::onRegexesChanged);
    }

    static ConsumerGroupHeartbeatResponseData error(short code, String message) {
        return new ConsumerGroupHeartbeatResponseData().setErrorCode(code).setErrorMessage(message);
    }

    /** Kafka's checks of a heartbeat before it looks at the group; throws {@link GroupException}. */
    void validate(ConsumerGroupHeartbeatRequestData r, short version) {
        invalidIfEmpty(r.groupId(), "GroupId can't be empty.");
        if (r.groupId() == null) {
            throw invalid("GroupId can't be empty.");
        }
        invalidIfEmpty(r.instanceId(), "InstanceId can't be empty.");
        invalidIfEmpty(r.rackId(), "RackId can't be empty.");
        if (version >= 1 || r.memberEpoch() > 0 || r.memberEpoch() == ConsumerMember.LEAVE_EPOCH) {
            if (r.memberId() == null || r.memberId().isEmpty()) {
                throw invalid("MemberId can't be empty.");
            }
        }
        int epoch = r.memberEpoch();
        if (epoch == 0) {
            if (r.rebalanceTimeoutMs() == -1) {
                throw invalid("RebalanceTimeoutMs must be provided in first request.");
            }
            // Kafka 4.4 accepts a join without TopicPartitions (null); librdkafka sends one when it rejoins
            // right after leaving
            if (r.topicPartitions() != null && !r.topicPartitions().isEmpty()) {
                throw invalid("TopicPartitions must be empty when (re-)joining.");
            }
            // As Kafka 4.4: an empty list of names (or an empty regex) joins subscribed to nothing; librdkafka
            // (re)joins that way when its subscription changes right after an unsubscribe
            if (r.subscribedTopicNames() == null && r.subscribedTopicRegex() == null) {
                throw invalid("Either SubscribedTopicNames or SubscribedTopicRegex must be non-null when (re-)joining.");
            }
        } else if (epoch == ConsumerMember.LEAVE_STATIC_EPOCH) {
            if (r.instanceId() == null) {
                throw invalid("InstanceId can't be null.");
            }
        } else if (epoch < ConsumerMember.LEAVE_EPOCH) {
            throw invalid("MemberEpoch is invalid.");
        }
        if (r.serverAssignor() != null && !config.consumerAssignors().contains(r.serverAssignor())) {
            throw new GroupException(Errors.UNSUPPORTED_ASSIGNOR, "ServerAssignor " + r.serverAssignor()
                    + " is not supported. Supported assignors: " + String.join(", ", config.consumerAssignors()) + ".");
        }
        if (r.subscribedTopicRegex() != null && !r.subscribedTopicRegex().isEmpty()) {
            RegexResolution.compile(r.subscribedTopicRegex());
        }
    }

    private static void invalidIfEmpty(String value, String message) {
        if (value != null && value.isEmpty()) {
            throw invalid(message);
        }
    }

    private static GroupException invalid(String message) {
        return new GroupException(Errors.INVALID_REQUEST, message);
    }

    /**
     * A validated heartbeat on a live group; a resolution of the group's regular expressions it starts matches only
     * topics {@code regexTopics} admits.
     */
    ConsumerGroupHeartbeatResponseData heartbeat(ConsumerGroup group, ConsumerGroupHeartbeatRequestData r,
                                                 String clientId, String clientHost, Predicate<String> regexTopics) {
        int epoch = r.memberEpoch();
        if (epoch == ConsumerMember.LEAVE_EPOCH || epoch == ConsumerMember.LEAVE_STATIC_EPOCH) {
            return leave(group, r);
        }
        String memberId = r.memberId() == null || r.memberId().isEmpty() ? UUID.randomUUID().toString() : r.memberId();
        boolean created = false;
        ConsumerMember member;
        if (epoch == 0) {
            String currentStatic = r.instanceId() == null ? null : group.staticMembers.get(r.instanceId());
            boolean replaced = currentStatic != null && !currentStatic.equals(memberId);
            member = replaced ? replaceStatic(group, r.instanceId(), currentStatic, memberId) : group.members.get(memberId);
            if (member == null) {
                if (group.members.size() >= config.consumerMaxSize()) {
                    throw new GroupException(Errors.GROUP_MAX_SIZE_REACHED, "The consumer group has reached its maximum"
                            + " capacity of " + config.consumerMaxSize() + " members.");
                }
                member = new ConsumerMember(memberId);
                group.members.put(memberId, member);
                if (r.instanceId() != null) {
                    group.staticMembers.put(r.instanceId(), memberId);
                }
                created = true;
                LOG.atInfo().addKeyValue("group", group.groupId).addKeyValue("member", memberId)
                        .log("Member {} joins consumer group {}", memberId, group.groupId);
            } else if (!replaced && member.memberEpoch != 0) {
                resetForRejoin(group, member);
            }
        } else {
            member = group.members.get(memberId);
            if (member == null) {
                throw new GroupException(Errors.UNKNOWN_MEMBER_ID,
                        "Member " + memberId + " is not a member of group " + group.groupId + ".");
            }
            throwIfEpochInvalid(member, epoch, Reconciliation.owned(r.topicPartitions()));
        }
        Map<UUID, Set<Integer>> assignedBefore = ConsumerMember.copy(member.assigned);
        String regexBefore = member.subscribedTopicRegex;
        Update update = updateMember(member, r, clientId, clientHost);
        RegexResolution.Change regexChange = regexes.onMemberUpdate(group, member, regexBefore);
        regexes.maybeRefresh(group, regexTopics);
        boolean subscriptionChanged = update.topicNames() || regexChange != RegexResolution.Change.NONE;
        boolean bump = update.topicNames() || update.assignor() || created
                || regexChange == RegexResolution.Change.UPDATED_AND_RESOLVED;
        Map<String, ConsumerAssignors.Topic> metadata = subscriptionMetadata(group);
        if (!metadata.equals(group.subscriptionMetadata)) {
            group.subscriptionMetadata = metadata;
            bump = true;
        }
        if (bump) {
            group.groupEpoch++;
        }
        if (group.groupEpoch > group.assignmentEpoch && mayComputeTarget(group)) {
            computeTarget(group);
        }
        if (member.memberEpoch != group.assignmentEpoch || member.state != State.STABLE || subscriptionChanged) {
            int epochBefore = member.memberEpoch;
            State stateBefore = member.state;
            Reconciliation.reconcile(group, member, Reconciliation.owned(r.topicPartitions()),
                    subscribedTopicIds(group, member), subscriptionChanged);
            if (member.state == State.UNREVOKED_PARTITIONS
                    && (stateBefore != State.UNREVOKED_PARTITIONS || epochBefore != member.memberEpoch)) {
                scheduleRebalanceTimeout(group, member);
            } else if (member.state != State.UNREVOKED_PARTITIONS) {
                member.cancelRebalanceTimer();
            }
        }
        scheduleSessionTimeout(group, member);
        ConsumerGroupHeartbeatResponseData response = new ConsumerGroupHeartbeatResponseData()
                .setMemberId(member.memberId).setMemberEpoch(member.memberEpoch)
                .setHeartbeatIntervalMs(groupConfigs.consumerHeartbeatIntervalMs(group.groupId));
        boolean full = epoch == 0 || (r.rebalanceTimeoutMs() != -1
                && (r.subscribedTopicNames() != null || r.subscribedTopicRegex() != null) && r.topicPartitions() != null);
        if (full || !assignedBefore.equals(ConsumerMember.copy(member.assigned))) {
            response.setAssignment(assignment(member.assigned));
        }
        return response;
    }

    /** A member that rejoins with epoch 0 under its id has dropped everything: it starts over. */
    private static void resetForRejoin(ConsumerGroup group, ConsumerMember member) {
        group.releaseAll(member);
        member.assigned = new HashMap<>();
        member.pendingRevocation = new HashMap<>();
        member.state = State.STABLE;
        member.updateEpoch(0);
        member.cancelRebalanceTimer();
    }

    /**
     * A new incarnation of a static member that left with epoch -2: it takes over the old member's epoch
     * and assignment without a rebalance. An instance id still in use is refused.
     */
    private ConsumerMember replaceStatic(ConsumerGroup group, String instanceId, String currentId, String memberId) {
        ConsumerMember current = group.members.get(currentId);
        if (current.memberEpoch != ConsumerMember.LEAVE_STATIC_EPOCH) {
            throw new GroupException(Errors.UNRELEASED_INSTANCE_ID, "Static member " + memberId + " with instance id "
                    + instanceId + " cannot join the group " + group.groupId + " since the instance id is already in use.");
        }
        ConsumerMember replacement = current.withMemberId(memberId);
        current.cancelTimers();
        group.releaseAll(current);
        group.members.remove(currentId);
        group.members.put(memberId, replacement);
        group.staticMembers.put(instanceId, memberId);
        Map<UUID, Set<Integer>> target = group.targetAssignment.remove(currentId);
        if (target != null) {
            group.targetAssignment.put(memberId, target);
        }
        replacement.memberEpoch = current.previousMemberEpoch;
        replacement.previousMemberEpoch = current.previousMemberEpoch;
        group.updateOwnership(replacement, Map.of(), Map.of());
        LOG.atInfo().addKeyValue("group", group.groupId).addKeyValue("instance", instanceId)
                .log("Static member {} of consumer group {} rejoined as {}", instanceId, group.groupId, memberId);
        return replacement;
    }

    private static void throwIfEpochInvalid(ConsumerMember m, int received, Map<UUID, Set<Integer>> owned) {
        if (received > m.memberEpoch) {
            throw new GroupException(Errors.FENCED_MEMBER_EPOCH, "The consumer group member has a greater member epoch ("
                    + received + ") than the one known by the group coordinator (" + m.memberEpoch
                    + "). The member must abandon all its partitions and rejoin.");
        }
        if (received < m.memberEpoch && (received != m.previousMemberEpoch || owned == null
                || !ConsumerMember.containsAll(m.assigned, owned))) {
            throw new GroupException(Errors.FENCED_MEMBER_EPOCH, "The consumer group member has a smaller member epoch ("
                    + received + ") than the one known by the group coordinator (" + m.memberEpoch
                    + "). The member must abandon all its partitions and rejoin.");
        }
    }

    /** What a heartbeat changed of its member: its topic names, its assignor (its regex: see RegexResolution). */
    private record Update(boolean topicNames, boolean assignor) {
    }

    /** Applies the request's non-null fields and says which of the subscription and the assignor changed. */
    private static Update updateMember(ConsumerMember m, ConsumerGroupHeartbeatRequestData r, String clientId,
                                       String clientHost) {
        boolean names = false;
        boolean assignor = false;
        if (r.instanceId() != null) {
            m.instanceId = r.instanceId();
        }
        if (r.rackId() != null) {
            m.rackId = r.rackId();
        }
        m.clientId = clientId == null ? "" : clientId;
        m.clientHost = clientHost;
        if (r.rebalanceTimeoutMs() != -1) {
            m.rebalanceTimeoutMs = r.rebalanceTimeoutMs();
        }
        if (r.subscribedTopicNames() != null && !new HashSet<>(r.subscribedTopicNames()).equals(new HashSet<>(m.subscribedTopicNames))) {
            m.subscribedTopicNames = List.copyOf(r.subscribedTopicNames());
            names = true;
        }
        if (r.subscribedTopicRegex() != null) {
            String regex = r.subscribedTopicRegex().isEmpty() ? null : r.subscribedTopicRegex();
            if (!Objects.equals(regex, m.subscribedTopicRegex)) {
                m.subscribedTopicRegex = regex;
            }
        }
        if (r.serverAssignor() != null && !r.serverAssignor().equals(m.serverAssignor)) {
            m.serverAssignor = r.serverAssignor();
            assignor = true;
        }
        return new Update(names, assignor);
    }

    /** Leave with epoch -1 (gone: its partitions go to the others) or -2 (a static member that will return). */
    private ConsumerGroupHeartbeatResponseData leave(ConsumerGroup group, ConsumerGroupHeartbeatRequestData r) {
        ConsumerMember member;
        if (r.instanceId() != null) {
            String currentId = group.staticMembers.get(r.instanceId());
            if (currentId == null) {
                throw new GroupException(Errors.UNKNOWN_MEMBER_ID, "Instance id " + r.instanceId() + " is unknown.");
            }
            if (!currentId.equals(r.memberId())) {
                throw new GroupException(Errors.FENCED_INSTANCE_ID, "Static member " + r.memberId()
                        + " with instance id " + r.instanceId() + " is fenced by existing member " + currentId + ".");
            }
            member = group.members.get(currentId);
        } else {
            member = group.members.get(r.memberId());
            if (member == null) {
                throw new GroupException(Errors.UNKNOWN_MEMBER_ID,
                        "Member " + r.memberId() + " is not a member of group " + group.groupId + ".");
            }
        }
        ConsumerGroupHeartbeatResponseData response = new ConsumerGroupHeartbeatResponseData()
                .setMemberId(member.memberId).setMemberEpoch(r.memberEpoch());
        if (r.memberEpoch() == ConsumerMember.LEAVE_STATIC_EPOCH) {
            member.updateEpoch(ConsumerMember.LEAVE_STATIC_EPOCH);
            member.cancelRebalanceTimer();
            scheduleSessionTimeout(group, member);
            LOG.atInfo().addKeyValue("group", group.groupId).addKeyValue("member", member.memberId)
                    .log("Static member {} left consumer group {} and may return", member.memberId, group.groupId);
            return response;
        }
        removeMember(group, member, "left the group");
        return response;
    }

    /** Removes a member, frees its partitions and bumps the group epoch. */
    void removeMember(ConsumerGroup group, ConsumerMember member, String reason) {
        member.cancelTimers();
        group.releaseAll(member);
        group.members.remove(member.memberId);
        group.targetAssignment.remove(member.memberId);
        if (member.instanceId != null && member.memberId.equals(group.staticMembers.get(member.instanceId))) {
            group.staticMembers.remove(member.instanceId);
        }
        group.groupEpoch++;
        RegexResolution.forgetUnsubscribed(group);
        group.subscriptionMetadata = subscriptionMetadata(group);
        if (group.members.isEmpty()) {
            // As Kafka: the empty group's target is its (empty) assignment at this epoch, with no timestamp, so
            // the next member to join is assigned at once
            group.assignmentEpoch = group.groupEpoch;
            group.assignmentTimestampMs = 0;
            group.emptySinceMs = timer.nowMs();
        }
        LOG.atInfo().addKeyValue("group", group.groupId).addKeyValue("member", member.memberId)
                .addKeyValue("reason", reason).log("Member {} removed from consumer group {}: {}", member.memberId,
                        group.groupId, reason);
    }

    private void scheduleSessionTimeout(ConsumerGroup group, ConsumerMember member) {
        if (member.sessionTimer != null) {
            member.sessionTimer.cancel();
        }
        long epoch = ++member.timerEpoch;
        member.sessionTimer = timer.schedule(groupConfigs.consumerSessionTimeoutMs(group.groupId), () -> expire(group, member, epoch,
                "session timeout expired"));
    }

    private void scheduleRebalanceTimeout(ConsumerGroup group, ConsumerMember member) {
        member.cancelRebalanceTimer();
        int memberEpoch = member.memberEpoch;
        member.rebalanceTimer = timer.schedule(Math.max(0, member.rebalanceTimeoutMs), () -> {
            synchronized (group) {
                if (group.members.get(member.memberId) == member && member.state == State.UNREVOKED_PARTITIONS
                        && member.memberEpoch == memberEpoch) {
                    removeMember(group, member, "did not revoke its partitions within the rebalance timeout");
                }
            }
        });
    }

    private void expire(ConsumerGroup group, ConsumerMember member, long timerEpoch, String reason) {
        synchronized (group) {
            if (group.members.get(member.memberId) == member && member.timerEpoch == timerEpoch) {
                removeMember(group, member, reason);
            }
        }
    }

    /**
     * The topics the members subscribe to (by name, or through the last resolution of their regex) that exist,
     * by name.
     */
    Map<String, ConsumerAssignors.Topic> subscriptionMetadata(ConsumerGroup group) {
        Set<String> names = new HashSet<>();
        for (ConsumerMember m : group.members.values()) {
            names.addAll(m.subscribedTopicNames);
            if (m.subscribedTopicRegex != null) {
                names.addAll(group.resolvedRegexes.getOrDefault(m.subscribedTopicRegex, Set.of()));
            }
        }
        Map<String, ConsumerAssignors.Topic> out = new HashMap<>();
        for (String name : names) {
            store.topic(name).ifPresent(t -> out.put(name, topic(t)));
        }
        return out;
    }

    /** The ids of the existing topics {@code m} subscribes to, by name or through its resolved regex. */
    private static Set<UUID> subscribedTopicIds(ConsumerGroup group, ConsumerMember m) {
        Set<UUID> out = new HashSet<>();
        for (String name : m.subscribedTopicNames) {
            ConsumerAssignors.Topic t = group.subscriptionMetadata.get(name);
            if (t != null) {
                out.add(t.id());
            }
        }
        if (m.subscribedTopicRegex != null) {
            for (String name : group.resolvedRegexes.getOrDefault(m.subscribedTopicRegex, Set.of())) {
                ConsumerAssignors.Topic t = group.subscriptionMetadata.get(name);
                if (t != null) {
                    out.add(t.id());
                }
            }
        }
        return out;
    }

    /** A resolution changed what the group's regexes match: new subscription metadata, a new group epoch. */
    private void onRegexesChanged(ConsumerGroup group) {
        group.subscriptionMetadata = subscriptionMetadata(group);
        group.groupEpoch++;
        LOG.atInfo().addKeyValue("group", group.groupId).addKeyValue("epoch", group.groupEpoch)
                .log("The regular expressions of consumer group {} match other topics: group epoch bumped to {}",
                        group.groupId, group.groupEpoch);
    }

    private static ConsumerAssignors.Topic topic(TopicRecord t) {
        return new ConsumerAssignors.Topic(t.topicId(), t.name(), t.partitions());
    }

    /**
     * Kafka's {@code canComputeNextTargetAssignment}: a group's first target at once, the next ones no sooner than
     * the group's {@code consumer.assignment.interval.ms} (else the broker's {@code group.consumer.assignment.interval.ms})
     * after the last.
     */
    private boolean mayComputeTarget(ConsumerGroup group) {
        int interval = groupConfigs.consumerAssignmentIntervalMs(group.groupId);
        return group.assignmentTimestampMs == 0 || interval == 0
                || timer.nowMs() >= group.assignmentTimestampMs + interval;
    }

    /** Runs the group's assignor over the members and sets the target assignment at the group epoch. */
    void computeTarget(ConsumerGroup group) {
        Map<UUID, ConsumerAssignors.Topic> byId = new HashMap<>();
        group.subscriptionMetadata.values().forEach(t -> byId.put(t.id(), t));
        List<ConsumerAssignors.Member> members = new ArrayList<>();
        for (ConsumerMember m : group.members.values()) {
            members.add(new ConsumerAssignors.Member(m.memberId, subscribedTopicIds(group, m),
                    group.targetAssignment.getOrDefault(m.memberId, Map.of())));
        }
        String assignor = group.assignor(config.consumerAssignors().get(0));
        group.targetAssignment.clear();
        group.targetAssignment.putAll(ConsumerAssignors.assign(assignor, members, byId));
        group.assignmentEpoch = group.groupEpoch;
        group.assignmentTimestampMs = Math.max(1, timer.nowMs());
        LOG.atDebug().addKeyValue("group", group.groupId).addKeyValue("epoch", group.groupEpoch)
                .log("New target assignment of consumer group {} at epoch {}", group.groupId, group.groupEpoch);
    }

    static Assignment assignment(Map<UUID, Set<Integer>> partitions) {
        List<TopicPartitions> out = new ArrayList<>();
        partitions.forEach((topic, ps) -> out.add(new TopicPartitions().setTopicId(topic)
                .setPartitions(new ArrayList<>(new TreeSet<>(ps)))));
        return new Assignment().setTopicPartitions(out);
    }

    /** Stops a group's timers (coordinator shutdown). */
    void shutdown(ConsumerGroup group) {
        group.members.values().forEach(ConsumerMember::cancelTimers);
    }
}
