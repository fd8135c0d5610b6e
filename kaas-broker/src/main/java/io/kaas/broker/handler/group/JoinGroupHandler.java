package io.kaas.broker.handler.group;

import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.coordinator.group.GroupCoordinator;
import io.kaas.wire.message.JoinGroupRequestData;
import io.kaas.wire.message.JoinGroupResponseData;
import java.util.concurrent.CompletableFuture;

/**
 * JoinGroup v0-9 (Kafka 4.x keeps every version). The answer waits for the join phase of the rebalance;
 * from v4 a new member first gets MEMBER_ID_REQUIRED with its id (KIP-394).
 */
public final class JoinGroupHandler implements ApiHandler<JoinGroupRequestData, JoinGroupResponseData> {
    private final GroupCoordinator coordinator;

    public JoinGroupHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletableFuture<JoinGroupResponseData> handle(RequestContext context, JoinGroupRequestData request) {
        short version = context.apiVersion();
        return coordinator.joinGroup(request, version, context.clientId(), GroupHandlers.clientHost(context))
                .thenApply(r -> forVersion(r, version));
    }

    /** Protocol name is nullable only from v7; the members' instance ids exist only from v5. */
    static JoinGroupResponseData forVersion(JoinGroupResponseData r, short version) {
        if (version < 7 && r.protocolName() == null) {
            r.setProtocolName("");
        }
        if (version < 9) {
            r.setSkipAssignment(false);
        }
        return r;
    }
}
