package io.kaas.broker.handler.group;

import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.coordinator.group.GroupCoordinator;
import io.kaas.wire.message.ListGroupsRequestData;
import io.kaas.wire.message.ListGroupsResponseData;
import io.kaas.wire.message.ListGroupsResponseData.ListedGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/** ListGroups v0-5, with the state filter (v4+) and the type filter (v5+: "classic" or "consumer", KIP-848). */
public final class ListGroupsHandler implements ApiHandler<ListGroupsRequestData, ListGroupsResponseData> {
    private final GroupCoordinator coordinator;

    public ListGroupsHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletableFuture<ListGroupsResponseData> handle(RequestContext context, ListGroupsRequestData request) {
        short version = context.apiVersion();
        List<ListedGroup> groups = coordinator.admin().listGroups(version >= 4 ? request.statesFilter() : List.of(),
                version >= 5 ? request.typesFilter() : List.of());
        // As Kafka: every group with DESCRIBE on the cluster, else only the groups the principal may DESCRIBE.
        Set<String> describable = context.access().allowed(Operation.DESCRIBE, ResourceType.GROUP,
                groups.stream().map(ListedGroup::groupId).toList());
        List<ListedGroup> visible = groups.stream().filter(g -> describable.contains(g.groupId()))
                .collect(Collectors.toCollection(ArrayList::new));
        return CompletableFuture.completedFuture(new ListGroupsResponseData().setGroups(visible));
    }
}
