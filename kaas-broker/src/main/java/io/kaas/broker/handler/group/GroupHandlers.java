package io.kaas.broker.handler.group;

import io.kaas.broker.BrokerContext;
import io.kaas.coordinator.group.GroupCoordinator;
import io.kaas.broker.handler.ApiHandler;
import io.kaas.broker.handler.RequestContext;
import java.net.InetSocketAddress;
import java.util.List;

/** Creates the handlers of the group APIs over one coordinator. */
public final class GroupHandlers {
    private GroupHandlers() {
    }

    /**
     * The classic-protocol group APIs, the offset APIs and the KIP-848 consumer protocol
     * (ConsumerGroupHeartbeat, ConsumerGroupDescribe). Advertising ConsumerGroupHeartbeat is what makes
     * the Java client accept {@code group.protocol=consumer} and franz-go switch to KIP-848; no feature
     * ({@code group.version}) needs finalizing for either.
     */
    public static List<ApiHandler<?, ?>> create(BrokerContext ctx, GroupCoordinator coordinator) {
        return List.of(
                new FindCoordinatorHandler(ctx),
                new JoinGroupHandler(coordinator),
                new SyncGroupHandler(coordinator),
                new HeartbeatHandler(coordinator),
                new LeaveGroupHandler(coordinator),
                new OffsetCommitHandler(coordinator),
                new OffsetFetchHandler(coordinator),
                new ListGroupsHandler(coordinator),
                new DescribeGroupsHandler(coordinator),
                new DeleteGroupsHandler(coordinator),
                new OffsetDeleteHandler(coordinator),
                new ConsumerGroupHeartbeatHandler(coordinator),
                new ConsumerGroupDescribeHandler(coordinator));
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
