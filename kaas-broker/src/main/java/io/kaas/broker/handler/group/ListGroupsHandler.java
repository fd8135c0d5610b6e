package io.kaas.broker.handler.group;

import io.kaas.coordinator.group.GroupCoordinator;
import io.kaas.broker.handler.ApiHandler;
import io.kaas.broker.handler.RequestContext;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.ListGroupsRequestData;
import io.kaas.wire.message.ListGroupsResponseData;
import io.kaas.wire.message.ListGroupsResponseData.ListedGroup;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** ListGroups v0-5, with the state filter (v4+) and the type filter (v5+: "classic" or "consumer", KIP-848). */
public final class ListGroupsHandler implements ApiHandler<ListGroupsRequestData, ListGroupsResponseData> {
    private final GroupCoordinator coordinator;

    public ListGroupsHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public ApiMessageType api() {
        return ApiMessageType.LIST_GROUPS;
    }

    @Override
    public short minVersion() {
        return 0;
    }

    @Override
    public short maxVersion() {
        return 5;
    }

    @Override
    public CompletableFuture<ListGroupsResponseData> handle(RequestContext context, ListGroupsRequestData request) {
        short version = context.apiVersion();
        List<ListedGroup> groups = coordinator.admin().listGroups(version >= 4 ? request.statesFilter() : List.of(),
                version >= 5 ? request.typesFilter() : List.of());
        return CompletableFuture.completedFuture(new ListGroupsResponseData().setGroups(groups));
    }
}
