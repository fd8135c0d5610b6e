package io.kaas.broker.handler.group;

import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.coordinator.group.GroupCoordinator;
import io.kaas.wire.message.DescribeGroupsRequestData;
import io.kaas.wire.message.DescribeGroupsResponseData;
import io.kaas.wire.message.DescribeGroupsResponseData.DescribedGroup;
import io.kaas.wire.protocol.Errors;
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
    public CompletableFuture<DescribeGroupsResponseData> handle(RequestContext context, DescribeGroupsRequestData request) {
        short version = context.apiVersion();
        List<DescribedGroup> groups = new ArrayList<>();
        boolean includeOps = version >= 3 && request.includeAuthorizedOperations();
        for (String groupId : request.groups()) {
            if (!context.access().allowed(Operation.DESCRIBE, ResourceType.GROUP, groupId)) {
                DescribedGroup denied = new DescribedGroup().setGroupId(groupId)
                        .setErrorCode(Errors.GROUP_AUTHORIZATION_FAILED);
                groups.add(version >= 6 ? denied.setErrorMessage("Group authorization failed.") : denied);
                continue;
            }
            DescribedGroup described = coordinator.admin().describe(groupId, version);
            if (includeOps) {
                described.setAuthorizedOperations(context.access().authorizedOperations(ResourceType.GROUP, groupId));
            }
            groups.add(described);
        }
        return CompletableFuture.completedFuture(new DescribeGroupsResponseData().setGroups(groups));
    }
}
