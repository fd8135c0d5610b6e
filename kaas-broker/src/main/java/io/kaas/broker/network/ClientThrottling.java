package io.kaas.broker.network;

import io.kaas.wire.message.ApiMessageType;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Which request versions come from clients that throttle themselves (KIP-219), as Kafka 4.4's
 * {@code AbstractResponse.shouldClientThrottle(version)} answers: such a client gets its throttled response at once
 * and the connection is muted after it; an older one gets its response only when the throttle time is over. An API
 * not in the table throttles itself from v0 unless its response has no {@code throttle_time_ms} at all.
 */
final class ClientThrottling {
    /** The first version a client throttles itself at, for the APIs whose earlier versions it does not. */
    private static final Map<ApiMessageType, Short> FROM = new EnumMap<>(ApiMessageType.class);
    /** Responses without {@code throttle_time_ms} in any version: the client never throttles itself. */
    private static final Set<ApiMessageType> NEVER = EnumSet.of(ApiMessageType.SASL_HANDSHAKE,
            ApiMessageType.SASL_AUTHENTICATE, ApiMessageType.WRITE_TXN_MARKERS, ApiMessageType.ENVELOPE,
            ApiMessageType.VOTE, ApiMessageType.BEGIN_QUORUM_EPOCH, ApiMessageType.END_QUORUM_EPOCH,
            ApiMessageType.DESCRIBE_QUORUM, ApiMessageType.INITIALIZE_SHARE_GROUP_STATE,
            ApiMessageType.READ_SHARE_GROUP_STATE, ApiMessageType.WRITE_SHARE_GROUP_STATE,
            ApiMessageType.DELETE_SHARE_GROUP_STATE, ApiMessageType.READ_SHARE_GROUP_STATE_SUMMARY);

    static {
        from(ApiMessageType.PRODUCE, 6);
        from(ApiMessageType.FETCH, 8);
        from(ApiMessageType.LIST_OFFSETS, 3);
        from(ApiMessageType.METADATA, 6);
        from(ApiMessageType.OFFSET_COMMIT, 4);
        from(ApiMessageType.OFFSET_FETCH, 4);
        from(ApiMessageType.FIND_COORDINATOR, 2);
        from(ApiMessageType.JOIN_GROUP, 3);
        from(ApiMessageType.HEARTBEAT, 2);
        from(ApiMessageType.LEAVE_GROUP, 2);
        from(ApiMessageType.SYNC_GROUP, 2);
        from(ApiMessageType.DESCRIBE_GROUPS, 2);
        from(ApiMessageType.LIST_GROUPS, 2);
        from(ApiMessageType.API_VERSIONS, 2);
        from(ApiMessageType.CREATE_TOPICS, 3);
        from(ApiMessageType.DELETE_TOPICS, 2);
        from(ApiMessageType.DELETE_RECORDS, 1);
        from(ApiMessageType.INIT_PRODUCER_ID, 1);
        from(ApiMessageType.ADD_PARTITIONS_TO_TXN, 1);
        from(ApiMessageType.ADD_OFFSETS_TO_TXN, 1);
        from(ApiMessageType.END_TXN, 1);
        from(ApiMessageType.TXN_OFFSET_COMMIT, 1);
        from(ApiMessageType.DESCRIBE_ACLS, 1);
        from(ApiMessageType.CREATE_ACLS, 1);
        from(ApiMessageType.DELETE_ACLS, 1);
        from(ApiMessageType.DESCRIBE_CONFIGS, 2);
        from(ApiMessageType.ALTER_CONFIGS, 1);
        from(ApiMessageType.ALTER_REPLICA_LOG_DIRS, 1);
        from(ApiMessageType.DESCRIBE_LOG_DIRS, 1);
        from(ApiMessageType.CREATE_PARTITIONS, 1);
        from(ApiMessageType.CREATE_DELEGATION_TOKEN, 1);
        from(ApiMessageType.RENEW_DELEGATION_TOKEN, 1);
        from(ApiMessageType.EXPIRE_DELEGATION_TOKEN, 1);
        from(ApiMessageType.DESCRIBE_DELEGATION_TOKEN, 1);
        from(ApiMessageType.DELETE_GROUPS, 1);
    }

    private ClientThrottling() {
    }

    private static void from(ApiMessageType api, int version) {
        FROM.put(api, (short) version);
    }

    /** Whether a client sending {@code api} at {@code version} throttles itself on the response's throttle time. */
    static boolean throttlesItself(ApiMessageType api, short version) {
        if (NEVER.contains(api)) {
            return false;
        }
        Short from = FROM.get(api);
        return from == null || version >= from;
    }
}
