package io.kaas.broker.handler.group;

import io.kaas.coordinator.group.GroupCoordinator;
import io.kaas.broker.handler.ApiHandler;
import io.kaas.broker.handler.RequestContext;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.DeleteGroupsRequestData;
import io.kaas.wire.message.DeleteGroupsResponseData;
import io.kaas.wire.message.DeleteGroupsResponseData.DeletableGroupResult;
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
    public ApiMessageType api() {
        return ApiMessageType.DELETE_GROUPS;
    }

    @Override
    public short minVersion() {
        return 0;
    }

    @Override
    public short maxVersion() {
        return 2;
    }

    @Override
    public CompletableFuture<DeleteGroupsResponseData> handle(RequestContext context, DeleteGroupsRequestData request) {
        List<DeletableGroupResult> results = new ArrayList<>();
        for (String groupId : request.groupsNames()) {
            results.add(new DeletableGroupResult().setGroupId(groupId)
                    .setErrorCode(coordinator.admin().deleteGroup(groupId)));
        }
        return CompletableFuture.completedFuture(new DeleteGroupsResponseData().setResults(results));
    }
}
