package io.kaas.coordinator.group;

import io.kaas.coordinator.CoordinatorTimer;
import io.kaas.wire.message.JoinGroupResponseData;
import io.kaas.wire.message.SyncGroupResponseData;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** One member of a classic group. Guarded by its group's monitor. */
final class ClassicMember {

    /** A protocol the member supports, in the member's order of preference. */
    record Protocol(String name, byte[] metadata) {
        boolean sameAs(Protocol other) {
            return name.equals(other.name) && Arrays.equals(metadata, other.metadata);
        }
    }

    final String memberId;
    final String groupInstanceId;
    final String clientId;
    final String clientHost;
    int rebalanceTimeoutMs;
    int sessionTimeoutMs;
    List<Protocol> protocols;
    byte[] assignment = new byte[0];
    /** Joined during the current rebalance and not yet answered: dropped after the new-member timeout. */
    boolean isNew;
    CompletableFuture<JoinGroupResponseData> awaitingJoin;
    CompletableFuture<SyncGroupResponseData> awaitingSync;
    CoordinatorTimer.Task heartbeatTimer;
    /** Bumped whenever the heartbeat timer is replaced, so a stale timer that already fired does nothing. */
    long heartbeatEpoch;

    ClassicMember(String memberId, String groupInstanceId, String clientId, String clientHost, int rebalanceTimeoutMs,
                  int sessionTimeoutMs, List<Protocol> protocols) {
        this.memberId = memberId;
        this.groupInstanceId = groupInstanceId;
        this.clientId = clientId;
        this.clientHost = clientHost;
        this.rebalanceTimeoutMs = rebalanceTimeoutMs;
        this.sessionTimeoutMs = sessionTimeoutMs;
        this.protocols = List.copyOf(protocols);
    }

    /** A copy under a new member id (a static member replaced by a rejoin with an unknown id). */
    ClassicMember withMemberId(String newMemberId) {
        ClassicMember m = new ClassicMember(newMemberId, groupInstanceId, clientId, clientHost, rebalanceTimeoutMs,
                sessionTimeoutMs, protocols);
        m.assignment = assignment;
        return m;
    }

    boolean isStatic() {
        return groupInstanceId != null;
    }

    boolean isAwaitingJoin() {
        return awaitingJoin != null;
    }

    boolean isAwaitingSync() {
        return awaitingSync != null;
    }

    /** The member's metadata for {@code protocolName}, or null if it does not support it. */
    byte[] metadata(String protocolName) {
        for (Protocol p : protocols) {
            if (p.name().equals(protocolName)) {
                return p.metadata();
            }
        }
        return null;
    }

    /** Whether {@code others} lists the same protocols with the same metadata in the same order. */
    boolean matches(List<Protocol> others) {
        if (others.size() != protocols.size()) {
            return false;
        }
        for (int i = 0; i < others.size(); i++) {
            if (!protocols.get(i).sameAs(others.get(i))) {
                return false;
            }
        }
        return true;
    }

    void completeJoin(JoinGroupResponseData response) {
        CompletableFuture<JoinGroupResponseData> f = awaitingJoin;
        awaitingJoin = null;
        if (f != null) {
            f.complete(response);
        }
    }

    void completeSync(SyncGroupResponseData response) {
        CompletableFuture<SyncGroupResponseData> f = awaitingSync;
        awaitingSync = null;
        if (f != null) {
            f.complete(response);
        }
    }

    void cancelHeartbeat() {
        if (heartbeatTimer != null) {
            heartbeatTimer.cancel();
            heartbeatTimer = null;
        }
    }
}
