package io.kaas.coordinator.group;

import io.kaas.coordinator.internal.NotCoordinatorException;
import io.kaas.wire.protocol.Errors;
import io.kaas.api.cluster.ClusterStateException;
import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.TopicRecord;
import io.kaas.wire.message.ConsumerGroupDescribeResponseData;
import io.kaas.wire.message.ConsumerGroupDescribeResponseData.Member;
import io.kaas.wire.message.DescribeGroupsResponseData.DescribedGroup;
import io.kaas.wire.message.DescribeGroupsResponseData.DescribedGroupMember;
import io.kaas.wire.message.ListGroupsResponseData.ListedGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ListGroups, DescribeGroups, ConsumerGroupDescribe and DeleteGroups over the coordinator's classic and
 * consumer (KIP-848) groups. Thread-safe.
 */
public final class GroupAdmin {
    private static final Logger LOG = LoggerFactory.getLogger(GroupAdmin.class);
    /** The type of classic-protocol groups. */
    public static final String CLASSIC_TYPE = "classic";
    /** The type of KIP-848 consumer groups (also their protocol type). */
    public static final String CONSUMER_TYPE = "consumer";
    /**
     * Authorized operations as described groups carry them until the caller, which holds the authorizer,
     * fills them in when the request asks for them: Kafka's value for "not asked".
     */
    public static final int AUTHORIZED_OPERATIONS_OMITTED = Integer.MIN_VALUE;

    private final GroupCoordinator coordinator;
    private final ClusterStateStore store;
    private final OffsetStore offsetStore;

    GroupAdmin(GroupCoordinator coordinator, ClusterStateStore store, OffsetStore offsetStore) {
        this.coordinator = coordinator;
        this.store = store;
        this.offsetStore = offsetStore;
    }

    /**
     * Every live group, filtered (case-insensitively, as Kafka) by state name and group type; an empty
     * filter passes everything.
     */
    public List<ListedGroup> listGroups(List<String> statesFilter, List<String> typesFilter) {
        Set<String> states = lower(statesFilter);
        Set<String> types = lower(typesFilter);
        List<ListedGroup> out = new ArrayList<>();
        if (types.isEmpty() || types.contains(CONSUMER_TYPE)) {
            for (ConsumerGroup g : coordinator.allConsumerGroups()) {
                synchronized (g) {
                    String state = g.state().kafkaName;
                    if (!g.dead && (states.isEmpty() || states.contains(state.toLowerCase(Locale.ROOT)))) {
                        out.add(new ListedGroup().setGroupId(g.groupId).setProtocolType(CONSUMER_TYPE)
                                .setGroupState(state).setGroupType(CONSUMER_TYPE));
                    }
                }
            }
        }
        if (!types.isEmpty() && !types.contains(CLASSIC_TYPE)) {
            return out;
        }
        for (ClassicGroup g : coordinator.allGroups()) {
            synchronized (g) {
                if (g.is(GroupState.DEAD)) {
                    continue;
                }
                if (!states.isEmpty() && !states.contains(g.state.kafkaName().toLowerCase(Locale.ROOT))) {
                    continue;
                }
                out.add(new ListedGroup().setGroupId(g.groupId).setProtocolType(g.protocolType == null ? "" : g.protocolType)
                        .setGroupState(g.state.kafkaName()).setGroupType(CLASSIC_TYPE));
            }
        }
        return out;
    }

    private static Set<String> lower(List<String> values) {
        return values == null ? Set.of()
                : values.stream().map(s -> s.toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
    }

    /**
     * One group as DescribeGroups shows it: members always, their metadata and assignments and the
     * protocol only when Stable. An unknown group is Dead with no members, and, from v6, GROUP_ID_NOT_FOUND.
     */
    public DescribedGroup describe(String groupId, short version) {
        DescribedGroup d = new DescribedGroup().setGroupId(groupId).setProtocolType("").setProtocolData("")
                .setMembers(new ArrayList<>());
        if (version >= 3) {
            d.setAuthorizedOperations(AUTHORIZED_OPERATIONS_OMITTED);
        }
        if (groupId == null) {
            return d.setGroupId("").setErrorCode(Errors.INVALID_GROUP_ID).setGroupState(GroupState.DEAD.kafkaName());
        }
        short notHere = coordinator.coordinatorError(groupId);
        if (notHere != Errors.NONE) {
            return d.setErrorCode(notHere).setGroupState(GroupState.DEAD.kafkaName());
        }
        ConsumerGroup consumer = coordinator.consumerGroup(groupId);
        if (consumer != null && !consumer.dead) {
            return dead(d, version, "Group " + groupId + " is not a classic group.");
        }
        ClassicGroup g = coordinator.group(groupId);
        if (g == null) {
            return dead(d, version, "Group " + groupId + " not found.");
        }
        synchronized (g) {
            if (g.is(GroupState.DEAD)) {
                return dead(d, version, "Group " + groupId + " not found.");
            }
            boolean stable = g.is(GroupState.STABLE);
            d.setGroupState(g.state.kafkaName()).setProtocolType(g.protocolType == null ? "" : g.protocolType)
                    .setProtocolData(stable ? g.protocolName : "");
            for (ClassicMember m : g.members.values()) {
                byte[] metadata = stable ? m.metadata(g.protocolName) : null;
                d.members().add(new DescribedGroupMember().setMemberId(m.memberId).setGroupInstanceId(m.groupInstanceId)
                        .setClientId(m.clientId).setClientHost(m.clientHost)
                        .setMemberMetadata(metadata == null ? new byte[0] : metadata)
                        .setMemberAssignment(stable ? m.assignment : new byte[0]));
            }
            return d;
        }
    }

    private static DescribedGroup dead(DescribedGroup d, short version, String message) {
        d.setGroupState(GroupState.DEAD.kafkaName());
        if (version >= 6) {
            d.setErrorCode(Errors.GROUP_ID_NOT_FOUND).setErrorMessage(message);
        }
        return d;
    }

    /**
     * One group as ConsumerGroupDescribe shows it; GROUP_ID_NOT_FOUND for an unknown id ("Group X not
     * found.") and for a classic group ("Group X is not a consumer group.", which makes the admin client
     * fall back to DescribeGroups).
     */
    public ConsumerGroupDescribeResponseData.DescribedGroup describeConsumerGroup(String groupId, short version) {
        var d = new ConsumerGroupDescribeResponseData.DescribedGroup().setGroupId(groupId == null ? "" : groupId)
                .setAuthorizedOperations(AUTHORIZED_OPERATIONS_OMITTED);
        if (groupId == null) {
            return d.setErrorCode(Errors.INVALID_GROUP_ID);
        }
        short notHere = coordinator.coordinatorError(groupId);
        if (notHere != Errors.NONE) {
            return d.setErrorCode(notHere);
        }
        ConsumerGroup g = coordinator.consumerGroup(groupId);
        if (g == null || g.dead) {
            ClassicGroup classic = coordinator.group(groupId);
            boolean isClassic = classic != null && !classic.is(GroupState.DEAD);
            return d.setErrorCode(Errors.GROUP_ID_NOT_FOUND)
                    .setErrorMessage("Group " + groupId + (isClassic ? " is not a consumer group." : " not found."));
        }
        synchronized (g) {
            if (g.dead) {
                return d.setErrorCode(Errors.GROUP_ID_NOT_FOUND).setErrorMessage("Group " + groupId + " not found.");
            }
            d.setGroupState(g.state().kafkaName).setGroupEpoch(g.groupEpoch).setAssignmentEpoch(g.assignmentEpoch)
                    .setAssignorName(g.assignor(coordinator.config().consumerAssignors().get(0)));
            List<Member> members = new ArrayList<>();
            for (ConsumerMember m : g.members.values()) {
                Member member = new Member().setMemberId(m.memberId).setInstanceId(m.instanceId).setRackId(m.rackId)
                        .setMemberEpoch(m.memberEpoch).setClientId(m.clientId == null ? "" : m.clientId)
                        .setClientHost(m.clientHost == null ? "" : m.clientHost)
                        .setSubscribedTopicNames(new ArrayList<>(new TreeSet<>(m.subscribedTopicNames)))
                        .setSubscribedTopicRegex(m.subscribedTopicRegex)
                        .setAssignment(describedAssignment(m.assigned))
                        .setTargetAssignment(describedAssignment(g.targetAssignment.getOrDefault(m.memberId, Map.of())));
                if (version >= 1) {
                    member.setMemberType((byte) 1);
                }
                members.add(member);
            }
            return d.setMembers(members);
        }
    }

    private ConsumerGroupDescribeResponseData.Assignment describedAssignment(Map<UUID, Set<Integer>> partitions) {
        List<ConsumerGroupDescribeResponseData.TopicPartitions> out = new ArrayList<>();
        partitions.forEach((topicId, ps) -> {
            Optional<TopicRecord> topic = store.topic(topicId);
            if (topic.isPresent() && !ps.isEmpty()) {
                out.add(new ConsumerGroupDescribeResponseData.TopicPartitions().setTopicId(topicId)
                        .setTopicName(topic.get().name()).setPartitions(new ArrayList<>(new TreeSet<>(ps))));
            }
        });
        out.sort(java.util.Comparator.comparing(ConsumerGroupDescribeResponseData.TopicPartitions::topicName));
        return new ConsumerGroupDescribeResponseData.Assignment().setTopicPartitions(out);
    }

    /**
     * DeleteGroups for one group: removes an Empty group and its committed offsets, and its pending transactional
     * offsets (as Kafka: the transaction's commit then stores none).
     */
    public short deleteGroup(String groupId) {
        if (groupId == null) {
            return Errors.INVALID_GROUP_ID;
        }
        short notHere = coordinator.coordinatorError(groupId);
        if (notHere != Errors.NONE) {
            return notHere;
        }
        ConsumerGroup consumer = coordinator.consumerGroup(groupId);
        if (consumer != null) {
            synchronized (consumer) {
                if (!consumer.dead) {
                    if (!consumer.members.isEmpty()) {
                        return Errors.NON_EMPTY_GROUP;
                    }
                    short error = deleteStored(groupId);
                    if (error == Errors.NONE) {
                        coordinator.removeConsumerGroup(consumer);
                    }
                    return error;
                }
            }
        }
        ClassicGroup g = coordinator.group(groupId);
        if (g == null) {
            return Errors.GROUP_ID_NOT_FOUND;
        }
        synchronized (g) {
            if (g.is(GroupState.DEAD)) {
                return Errors.GROUP_ID_NOT_FOUND;
            }
            if (!g.is(GroupState.EMPTY)) {
                return Errors.NON_EMPTY_GROUP;
            }
            short error = deleteStored(groupId);
            if (error == Errors.NONE) {
                coordinator.remove(g);
            }
            return error;
        }
    }

    private short deleteStored(String groupId) {
        try {
            offsetStore.deleteGroup(groupId);
            coordinator.offsets().dropPendingTransactional(groupId, null);
        } catch (NotCoordinatorException e) {
            return Errors.NOT_COORDINATOR;
        } catch (ClusterStateException e) {
            LOG.atError().setCause(e).addKeyValue("group", groupId).log("Could not delete group {}", groupId);
            return Errors.COORDINATOR_NOT_AVAILABLE;
        }
        LOG.atInfo().addKeyValue("group", groupId).log("Deleted group {}", groupId);
        return Errors.NONE;
    }
}
