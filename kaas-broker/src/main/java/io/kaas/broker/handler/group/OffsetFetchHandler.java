package io.kaas.broker.handler.group;

import io.kaas.api.cluster.CommittedOffset;
import io.kaas.coordinator.group.GroupCoordinator;
import io.kaas.wire.protocol.Errors;
import io.kaas.coordinator.group.OffsetManager;
import io.kaas.broker.handler.ApiHandler;
import io.kaas.broker.handler.RequestContext;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.OffsetFetchRequestData;
import io.kaas.wire.message.OffsetFetchRequestData.OffsetFetchRequestGroup;
import io.kaas.wire.message.OffsetFetchRequestData.OffsetFetchRequestTopic;
import io.kaas.wire.message.OffsetFetchRequestData.OffsetFetchRequestTopics;
import io.kaas.wire.message.OffsetFetchResponseData;
import io.kaas.wire.message.OffsetFetchResponseData.OffsetFetchResponseGroup;
import io.kaas.wire.message.OffsetFetchResponseData.OffsetFetchResponsePartition;
import io.kaas.wire.message.OffsetFetchResponseData.OffsetFetchResponsePartitions;
import io.kaas.wire.message.OffsetFetchResponseData.OffsetFetchResponseTopic;
import io.kaas.wire.message.OffsetFetchResponseData.OffsetFetchResponseTopics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * OffsetFetch v1-9 (v0 removed in Kafka 4.0; v10, topic ids, is unstable): one group (v1-7; null topics
 * from v2 means all) or several (v8+). A partition without a commit answers offset -1, no error.
 * {@code require_stable} needs no wait: there are no pending transactional commits. v9 carries the member
 * id and epoch of a consumer (KIP-848) group member: UNKNOWN_MEMBER_ID / STALE_MEMBER_EPOCH when they do not match.
 */
public final class OffsetFetchHandler implements ApiHandler<OffsetFetchRequestData, OffsetFetchResponseData> {
    private final GroupCoordinator coordinator;

    public OffsetFetchHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public ApiMessageType api() {
        return ApiMessageType.OFFSET_FETCH;
    }

    @Override
    public short minVersion() {
        return 1;
    }

    @Override
    public short maxVersion() {
        return 9;
    }

    @Override
    public CompletableFuture<OffsetFetchResponseData> handle(RequestContext context, OffsetFetchRequestData request) {
        short version = context.apiVersion();
        OffsetFetchResponseData response = new OffsetFetchResponseData();
        if (version >= 8) {
            List<OffsetFetchResponseGroup> groups = new ArrayList<>();
            for (OffsetFetchRequestGroup g : request.groups()) {
                short error = version >= 9 ? coordinator.offsets().validateFetch(g.groupId(), g.memberId(), g.memberEpoch())
                        : Errors.NONE;
                groups.add(error == Errors.NONE ? fetchGroup(g)
                        : new OffsetFetchResponseGroup().setGroupId(g.groupId()).setErrorCode(error));
            }
            return CompletableFuture.completedFuture(response.setGroups(groups));
        }
        Map<String, List<Integer>> asked = null;
        if (request.topics() != null) {
            asked = new LinkedHashMap<>();
            for (OffsetFetchRequestTopic t : request.topics()) {
                asked.computeIfAbsent(t.name(), k -> new ArrayList<>()).addAll(t.partitionIndexes());
            }
        }
        OffsetManager.FetchResult result = coordinator.offsets().fetch(request.groupId(), asked);
        Map<String, OffsetFetchResponseTopic> topics = new LinkedHashMap<>();
        for (OffsetManager.Fetched f : result.partitions()) {
            CommittedOffset o = f.offset();
            topics.computeIfAbsent(f.partition().topic(), n -> new OffsetFetchResponseTopic().setName(n))
                    .partitions().add(new OffsetFetchResponsePartition().setPartitionIndex(f.partition().partition())
                            .setCommittedOffset(o == null ? -1 : o.offset())
                            .setCommittedLeaderEpoch(o == null || version < 5 ? -1 : o.leaderEpoch())
                            .setMetadata(o == null ? "" : o.metadata())
                            .setErrorCode(version < 2 ? result.errorCode() : Errors.NONE));
        }
        response.setTopics(new ArrayList<>(topics.values()));
        if (version >= 2) {
            response.setErrorCode(result.errorCode());
        }
        return CompletableFuture.completedFuture(response);
    }

    private OffsetFetchResponseGroup fetchGroup(OffsetFetchRequestGroup g) {
        Map<String, List<Integer>> asked = null;
        if (g.topics() != null) {
            asked = new LinkedHashMap<>();
            for (OffsetFetchRequestTopics t : g.topics()) {
                asked.computeIfAbsent(t.name(), k -> new ArrayList<>()).addAll(t.partitionIndexes());
            }
        }
        OffsetManager.FetchResult result = coordinator.offsets().fetch(g.groupId(), asked);
        Map<String, OffsetFetchResponseTopics> topics = new LinkedHashMap<>();
        for (OffsetManager.Fetched f : result.partitions()) {
            CommittedOffset o = f.offset();
            topics.computeIfAbsent(f.partition().topic(), n -> new OffsetFetchResponseTopics().setName(n))
                    .partitions().add(new OffsetFetchResponsePartitions().setPartitionIndex(f.partition().partition())
                            .setCommittedOffset(o == null ? -1 : o.offset())
                            .setCommittedLeaderEpoch(o == null ? -1 : o.leaderEpoch())
                            .setMetadata(o == null ? "" : o.metadata()));
        }
        return new OffsetFetchResponseGroup().setGroupId(g.groupId()).setErrorCode(result.errorCode())
                .setTopics(new ArrayList<>(topics.values()));
    }
}
