package io.kaas.broker.handler.group;

import io.kaas.coordinator.group.GroupCoordinator;
import io.kaas.broker.handler.ApiHandler;
import io.kaas.broker.handler.RequestContext;
import io.kaas.wire.message.ApiMessageType;
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
    public ApiMessageType api() {
        return ApiMessageType.SYNC_GROUP;
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
    public CompletableFuture<SyncGroupResponseData> handle(RequestContext context, SyncGroupRequestData request) {
        return coordinator.syncGroup(request);
    }
}
