package io.kaas.broker.handler.group;

import io.kaas.coordinator.group.GroupCoordinator;
import io.kaas.broker.handler.ApiHandler;
import io.kaas.broker.handler.RequestContext;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.ConsumerGroupDescribeRequestData;
import io.kaas.wire.message.ConsumerGroupDescribeResponseData;
import io.kaas.wire.message.ConsumerGroupDescribeResponseData.DescribedGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * ConsumerGroupDescribe v0-1 (KIP-848): epochs, assignor, members with their current and target
 * assignments (v1 adds the member type). A classic group answers GROUP_ID_NOT_FOUND ("… is not a
 * consumer group."), on which the admin client falls back to DescribeGroups.
 */
public final class ConsumerGroupDescribeHandler
        implements ApiHandler<ConsumerGroupDescribeRequestData, ConsumerGroupDescribeResponseData> {
    private final GroupCoordinator coordinator;

    public ConsumerGroupDescribeHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public ApiMessageType api() {
        return ApiMessageType.CONSUMER_GROUP_DESCRIBE;
    }

    @Override
    public short minVersion() {
        return 0;
    }

    @Override
    public short maxVersion() {
        return 1;
    }

    @Override
    public CompletableFuture<ConsumerGroupDescribeResponseData> handle(RequestContext context,
                                                                      ConsumerGroupDescribeRequestData request) {
        List<DescribedGroup> groups = new ArrayList<>();
        for (String groupId : request.groupIds()) {
            groups.add(coordinator.admin().describeConsumerGroup(groupId, context.apiVersion(),
                    request.includeAuthorizedOperations()));
        }
        return CompletableFuture.completedFuture(new ConsumerGroupDescribeResponseData().setGroups(groups));
    }
}
