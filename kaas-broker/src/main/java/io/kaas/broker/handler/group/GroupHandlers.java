package io.kaas.broker.handler.group;

import io.kaas.broker.BrokerContext;
import io.kaas.broker.request.ApiContracts;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.request.ServedApi;
import io.kaas.broker.topic.TopicManager;
import io.kaas.broker.cluster.ClusterView;
import io.kaas.broker.coordinator.CoordinatorTopic;
import io.kaas.coordinator.group.GroupCoordinator;
import java.net.InetSocketAddress;
import java.util.List;

/** Creates the handlers of the group APIs over one coordinator. */
public final class GroupHandlers {
    private GroupHandlers() {
    }

    /**
     * The classic-protocol group APIs, the offset APIs and the KIP-848 consumer protocol
     * (ConsumerGroupHeartbeat, ConsumerGroupDescribe). Advertising ConsumerGroupHeartbeat is what makes
     * the Java client accept {@code group.protocol=consumer} and franz-go switch to KIP-848 (ApiVersions also
     * finalizes {@code group.version} 1, as Kafka 4.x). {@code topics} names the topic ids of OffsetCommit v10 and
     * OffsetFetch v10.
     */
    public static List<ServedApi<?, ?>> create(BrokerContext ctx, GroupCoordinator coordinator, ClusterView cluster,
                                               CoordinatorTopic offsets, CoordinatorTopic transactionState,
                                               TopicManager topics) {
        return List.of(
                ServedApi.of(ApiContracts.FIND_COORDINATOR,
                        new FindCoordinatorHandler(ctx, cluster, offsets, transactionState)),
                ServedApi.of(ApiContracts.JOIN_GROUP, new JoinGroupHandler(coordinator)),
                ServedApi.of(ApiContracts.SYNC_GROUP, new SyncGroupHandler(coordinator)),
                ServedApi.of(ApiContracts.HEARTBEAT, new HeartbeatHandler(coordinator)),
                ServedApi.of(ApiContracts.LEAVE_GROUP, new LeaveGroupHandler(coordinator)),
                ServedApi.of(ApiContracts.OFFSET_COMMIT, new OffsetCommitHandler(coordinator, topics)),
                ServedApi.of(ApiContracts.OFFSET_FETCH, new OffsetFetchHandler(coordinator, topics)),
                ServedApi.of(ApiContracts.LIST_GROUPS, new ListGroupsHandler(coordinator)),
                ServedApi.of(ApiContracts.DESCRIBE_GROUPS, new DescribeGroupsHandler(coordinator)),
                ServedApi.of(ApiContracts.DELETE_GROUPS, new DeleteGroupsHandler(coordinator)),
                ServedApi.of(ApiContracts.OFFSET_DELETE, new OffsetDeleteHandler(coordinator)),
                ServedApi.of(ApiContracts.CONSUMER_GROUP_HEARTBEAT, new ConsumerGroupHeartbeatHandler(coordinator)),
                ServedApi.of(ApiContracts.CONSUMER_GROUP_DESCRIBE, new ConsumerGroupDescribeHandler(coordinator)));
    }

    /** The client's host as Kafka shows it in DescribeGroups ({@code /127.0.0.1}). */
    static String clientHost(RequestContext context) {
        InetSocketAddress address = context.clientAddress();
        if (address == null) {
            return "";
        }
        return address.getAddress() != null ? address.getAddress().toString() : "/" + address.getHostString();
    }
}
