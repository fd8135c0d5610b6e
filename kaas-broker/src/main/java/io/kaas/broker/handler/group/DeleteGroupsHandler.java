package io.kaas.broker.handler.group;

import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.coordinator.group.GroupCoordinator;
import io.kaas.wire.message.DeleteGroupsRequestData;
import io.kaas.wire.message.DeleteGroupsResponseData;
import io.kaas.wire.message.DeleteGroupsResponseData.DeletableGroupResult;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** DeleteGroups v0-2: removes Empty groups and their offsets; NON_EMPTY_GROUP / GROUP_ID_NOT_FOUND otherwise. */
public final class DeleteGroupsHandler implements ApiHandler<DeleteGroupsRequestData, DeleteGroupsResponseData> {
    private final GroupCoordinator coordinator;

    public DeleteGroupsHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletableFuture<DeleteGroupsResponseData> handle(RequestContext context, DeleteGroupsRequestData request) {
        List<DeletableGroupResult> results = new ArrayList<>();
        for (String groupId : request.groupsNames()) {
            short error = context.access().allowed(Operation.DELETE, ResourceType.GROUP, groupId)
                    ? coordinator.admin().deleteGroup(groupId) : Errors.GROUP_AUTHORIZATION_FAILED;
            results.add(new DeletableGroupResult().setGroupId(groupId).setErrorCode(error));
        }
        return CompletableFuture.completedFuture(new DeleteGroupsResponseData().setResults(results));
    }
}
