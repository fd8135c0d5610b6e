package io.kaas.broker.handler.group;

import io.kaas.coordinator.group.GroupCoordinator;
import io.kaas.broker.handler.ApiHandler;
import io.kaas.broker.handler.RequestContext;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.DescribeGroupsRequestData;
import io.kaas.wire.message.DescribeGroupsResponseData;
import io.kaas.wire.message.DescribeGroupsResponseData.DescribedGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** DescribeGroups v0-6; v6 answers GROUP_ID_NOT_FOUND for an unknown group (KIP-1043), older ones Dead. */
public final class DescribeGroupsHandler implements ApiHandler<DescribeGroupsRequestData, DescribeGroupsResponseData> {
    private final GroupCoordinator coordinator;

    public DescribeGroupsHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public ApiMessageType api() {
        return ApiMessageType.DESCRIBE_GROUPS;
    }

    @Override
    public short minVersion() {
        return 0;
    }

    @Override
    public short maxVersion() {
        return 6;
    }

    @Override
    public CompletableFuture<DescribeGroupsResponseData> handle(RequestContext context, DescribeGroupsRequestData request) {
        short version = context.apiVersion();
        List<DescribedGroup> groups = new ArrayList<>();
        for (String groupId : request.groups()) {
            groups.add(coordinator.admin().describe(groupId, version,
                    version >= 3 && request.includeAuthorizedOperations()));
        }
        return CompletableFuture.completedFuture(new DescribeGroupsResponseData().setGroups(groups));
    }
}
