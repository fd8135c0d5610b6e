package io.kaas.broker.handler.group;

import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.coordinator.group.GroupCoordinator;
import io.kaas.wire.message.SyncGroupRequestData;
import io.kaas.wire.message.SyncGroupResponseData;
import java.util.concurrent.CompletableFuture;

/** SyncGroup v0-5: the leader hands in the assignment; every member gets its own part, as opaque bytes. */
public final class SyncGroupHandler implements ApiHandler<SyncGroupRequestData, SyncGroupResponseData> {
    private final GroupCoordinator coordinator;

    public SyncGroupHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletableFuture<SyncGroupResponseData> handle(RequestContext context, SyncGroupRequestData request) {
        return coordinator.syncGroup(request);
    }
}
