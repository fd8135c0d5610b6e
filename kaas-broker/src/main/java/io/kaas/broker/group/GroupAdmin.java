package io.kaas.broker.group;

import io.kaas.api.cluster.ClusterStateException;
import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.wire.message.DescribeGroupsResponseData.DescribedGroup;
import io.kaas.wire.message.DescribeGroupsResponseData.DescribedGroupMember;
import io.kaas.wire.message.ListGroupsResponseData.ListedGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** ListGroups, DescribeGroups and DeleteGroups over the coordinator's groups. Thread-safe. */
public final class GroupAdmin {
    private static final Logger LOG = LoggerFactory.getLogger(GroupAdmin.class);
    /** The only group type served so far (KIP-848 "consumer" groups are not). */
    public static final String CLASSIC_TYPE = "classic";
    /** DescribeGroups' authorized operations when not asked for. */
    public static final int AUTHORIZED_OPERATIONS_OMITTED = Integer.MIN_VALUE;
    /** READ (3), DELETE (6) and DESCRIBE (8): every operation on a group, as no authorizer is configured. */
    public static final int ALL_GROUP_OPERATIONS = (1 << 3) | (1 << 6) | (1 << 8);

    private final GroupCoordinator coordinator;
    private final ClusterStateStore store;

    GroupAdmin(GroupCoordinator coordinator, ClusterStateStore store) {
        this.coordinator = coordinator;
        this.store = store;
    }

    /**
     * Every live group, filtered (case-insensitively, as Kafka) by state name and group type; an empty
     * filter passes everything.
     */
    public List<ListedGroup> listGroups(List<String> statesFilter, List<String> typesFilter) {
        Set<String> states = lower(statesFilter);
        Set<String> types = lower(typesFilter);
        List<ListedGroup> out = new ArrayList<>();
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
    public DescribedGroup describe(String groupId, short version, boolean includeAuthorizedOperations) {
        DescribedGroup d = new DescribedGroup().setGroupId(groupId).setProtocolType("").setProtocolData("")
                .setMembers(new ArrayList<>());
        if (version >= 3) {
            d.setAuthorizedOperations(includeAuthorizedOperations ? ALL_GROUP_OPERATIONS : AUTHORIZED_OPERATIONS_OMITTED);
        }
        if (groupId == null) {
            return d.setGroupId("").setErrorCode(GroupErrors.INVALID_GROUP_ID).setGroupState(GroupState.DEAD.kafkaName());
        }
        ClassicGroup g = coordinator.group(groupId);
        if (g == null) {
            return dead(d, version, groupId);
        }
        synchronized (g) {
            if (g.is(GroupState.DEAD)) {
                return dead(d, version, groupId);
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

    private static DescribedGroup dead(DescribedGroup d, short version, String groupId) {
        d.setGroupState(GroupState.DEAD.kafkaName());
        if (version >= 6) {
            d.setErrorCode(GroupErrors.GROUP_ID_NOT_FOUND).setErrorMessage("Group " + groupId + " not found.");
        }
        return d;
    }

    /** DeleteGroups for one group: removes an Empty group and its committed offsets. */
    public short deleteGroup(String groupId) {
        if (groupId == null) {
            return GroupErrors.INVALID_GROUP_ID;
        }
        ClassicGroup g = coordinator.group(groupId);
        if (g == null) {
            return GroupErrors.GROUP_ID_NOT_FOUND;
        }
        synchronized (g) {
            if (g.is(GroupState.DEAD)) {
                return GroupErrors.GROUP_ID_NOT_FOUND;
            }
            if (!g.is(GroupState.EMPTY)) {
                return GroupErrors.NON_EMPTY_GROUP;
            }
            try {
                store.deleteGroup(groupId);
            } catch (ClusterStateException e) {
                LOG.atError().setCause(e).addKeyValue("group", groupId).log("Could not delete group {}", groupId);
                return GroupErrors.COORDINATOR_NOT_AVAILABLE;
            }
            coordinator.remove(g);
            LOG.atInfo().addKeyValue("group", groupId).log("Deleted group {}", groupId);
            return GroupErrors.NONE;
        }
    }
}
