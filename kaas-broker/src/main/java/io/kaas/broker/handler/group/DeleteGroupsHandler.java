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

/**
 * DeleteGroups v0-3: removes Empty groups and their offsets; NON_EMPTY_GROUP / GROUP_ID_NOT_FOUND otherwise. v3 adds a
 * per-group error message: as Kafka 4.4, null for the group's own state (not empty, not found, not authorized) and
 * for success; a cause when the deletion itself failed (coordinator moved or not ready, the tombstones not written).
 */
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
            results.add(new DeletableGroupResult().setGroupId(groupId).setErrorCode(error)
                    .setErrorMessage(context.apiVersion() >= 3 ? message(groupId, error) : null));
        }
        return CompletableFuture.completedFuture(new DeleteGroupsResponseData().setResults(results));
    }

    /** The v3 error message: null unless the deletion failed for a reason other than the group's state. */
    static String message(String groupId, short error) {
        return switch (error) {
            case Errors.NONE, Errors.NON_EMPTY_GROUP, Errors.GROUP_ID_NOT_FOUND, Errors.GROUP_AUTHORIZATION_FAILED,
                 Errors.INVALID_GROUP_ID -> null;
            case Errors.NOT_COORDINATOR -> "This broker is not the coordinator of group " + groupId + ".";
            case Errors.COORDINATOR_LOAD_IN_PROGRESS -> "The coordinator of group " + groupId + " is loading it.";
            case Errors.COORDINATOR_NOT_AVAILABLE -> "The coordinator of group " + groupId + " is not available.";
            default -> "Deleting group " + groupId + " failed: its offsets and metadata could not be removed.";
        };
    }
}
