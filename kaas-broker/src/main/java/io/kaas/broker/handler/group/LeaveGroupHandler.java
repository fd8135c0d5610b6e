package io.kaas.broker.handler.group;

import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.coordinator.group.GroupCoordinator;
import io.kaas.wire.message.LeaveGroupRequestData;
import io.kaas.wire.message.LeaveGroupRequestData.MemberIdentity;
import io.kaas.wire.message.LeaveGroupResponseData;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * LeaveGroup v0-5: one member (v0-2, whose error becomes the top-level error) or a batch with
 * per-member errors (v3+, also removal by {@code group.instance.id} alone).
 */
public final class LeaveGroupHandler implements ApiHandler<LeaveGroupRequestData, LeaveGroupResponseData> {
    private final GroupCoordinator coordinator;

    public LeaveGroupHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletableFuture<LeaveGroupResponseData> handle(RequestContext context, LeaveGroupRequestData request) {
        short version = context.apiVersion();
        List<MemberIdentity> members = version >= 3 ? request.members()
                : List.of(new MemberIdentity().setMemberId(request.memberId()));
        LeaveGroupResponseData response = coordinator.leaveGroup(request.groupId(), members);
        if (version < 3) {
            short error = response.errorCode();
            if (error == Errors.NONE && !response.members().isEmpty()) {
                error = response.members().get(0).errorCode();
            }
            response.setErrorCode(error).setMembers(new ArrayList<>());
        }
        return CompletableFuture.completedFuture(response);
    }
}
