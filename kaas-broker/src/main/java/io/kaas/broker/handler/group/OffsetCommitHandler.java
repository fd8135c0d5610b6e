package io.kaas.broker.handler.group;

import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.coordinator.group.GroupCoordinator;
import io.kaas.wire.protocol.Errors;
import io.kaas.coordinator.group.OffsetManager;
import io.kaas.broker.handler.ApiHandler;
import io.kaas.broker.handler.RequestContext;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.OffsetCommitRequestData;
import io.kaas.wire.message.OffsetCommitRequestData.OffsetCommitRequestPartition;
import io.kaas.wire.message.OffsetCommitRequestData.OffsetCommitRequestTopic;
import io.kaas.wire.message.OffsetCommitResponseData;
import io.kaas.wire.message.OffsetCommitResponseData.OffsetCommitResponsePartition;
import io.kaas.wire.message.OffsetCommitResponseData.OffsetCommitResponseTopic;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * OffsetCommit v2-9 (v0-1 removed in Kafka 4.0; v10, topic ids, is unstable). Answered only after the
 * cluster store has made the offsets durable. Unknown topics or partitions: UNKNOWN_TOPIC_OR_PARTITION.
 */
public final class OffsetCommitHandler implements ApiHandler<OffsetCommitRequestData, OffsetCommitResponseData> {
    private final GroupCoordinator coordinator;

    public OffsetCommitHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public ApiMessageType api() {
        return ApiMessageType.OFFSET_COMMIT;
    }

    @Override
    public short minVersion() {
        return 2;
    }

    @Override
    public short maxVersion() {
        return 9;
    }

    @Override
    public CompletableFuture<OffsetCommitResponseData> handle(RequestContext context, OffsetCommitRequestData request) {
        short version = context.apiVersion();
        List<OffsetManager.Commit> commits = new ArrayList<>();
        for (OffsetCommitRequestTopic t : request.topics()) {
            for (OffsetCommitRequestPartition p : t.partitions()) {
                if (p.partitionIndex() >= 0) {
                    commits.add(new OffsetManager.Commit(new TopicPartitionRef(t.name(), p.partitionIndex()),
                            p.committedOffset(), version >= 6 ? p.committedLeaderEpoch() : -1, p.committedMetadata()));
                }
            }
        }
        long retention = version <= 4 ? request.retentionTimeMs() : -1;
        Map<TopicPartitionRef, Short> errors = coordinator.offsets().commit(request.groupId(), request.memberId(),
                version >= 7 ? request.groupInstanceId() : null, request.generationIdOrMemberEpoch(), retention, commits,
                version);
        List<OffsetCommitResponseTopic> topics = new ArrayList<>();
        for (OffsetCommitRequestTopic t : request.topics()) {
            List<OffsetCommitResponsePartition> partitions = new ArrayList<>();
            for (OffsetCommitRequestPartition p : t.partitions()) {
                short error = p.partitionIndex() < 0 ? Errors.UNKNOWN_TOPIC_OR_PARTITION
                        : errors.get(new TopicPartitionRef(t.name(), p.partitionIndex()));
                partitions.add(new OffsetCommitResponsePartition().setPartitionIndex(p.partitionIndex()).setErrorCode(error));
            }
            topics.add(new OffsetCommitResponseTopic().setName(t.name()).setPartitions(partitions));
        }
        return CompletableFuture.completedFuture(new OffsetCommitResponseData().setTopics(topics));
    }
}
