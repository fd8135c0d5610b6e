package io.kaas.broker.handler.group;

import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.coordinator.group.GroupCoordinator;
import io.kaas.wire.message.HeartbeatRequestData;
import io.kaas.wire.message.HeartbeatResponseData;
import java.util.concurrent.CompletableFuture;

/** Heartbeat v0-4: keeps a member's session alive; REBALANCE_IN_PROGRESS tells it to rejoin. */
public final class HeartbeatHandler implements ApiHandler<HeartbeatRequestData, HeartbeatResponseData> {
    private final GroupCoordinator coordinator;

    public HeartbeatHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletableFuture<HeartbeatResponseData> handle(RequestContext context, HeartbeatRequestData request) {
        return CompletableFuture.completedFuture(new HeartbeatResponseData().setErrorCode(coordinator.heartbeat(request)));
    }
}
