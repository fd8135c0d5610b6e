package io.kaas.broker.handler.group;

import io.kaas.api.auth.Operation;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.topic.Topic;
import io.kaas.broker.topic.TopicManager;
import io.kaas.coordinator.group.GroupCoordinator;
import io.kaas.coordinator.group.OffsetManager;
import io.kaas.wire.message.OffsetCommitRequestData;
import io.kaas.wire.message.OffsetCommitRequestData.OffsetCommitRequestPartition;
import io.kaas.wire.message.OffsetCommitRequestData.OffsetCommitRequestTopic;
import io.kaas.wire.message.OffsetCommitResponseData;
import io.kaas.wire.message.OffsetCommitResponseData.OffsetCommitResponsePartition;
import io.kaas.wire.message.OffsetCommitResponseData.OffsetCommitResponseTopic;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * OffsetCommit v2-10 (v0-1 removed in Kafka 4.0). Answered only after the cluster store has made the offsets durable.
 * v10 (KIP-848, stable in Kafka 4.4) names topics by id: as Kafka, an id this cluster does not know answers
 * UNKNOWN_TOPIC_ID on each of its partitions, then a topic the principal may not READ TOPIC_AUTHORIZATION_FAILED;
 * the response names topics by the ids asked. Unknown topics or partitions: UNKNOWN_TOPIC_OR_PARTITION.
 */
public final class OffsetCommitHandler implements ApiHandler<OffsetCommitRequestData, OffsetCommitResponseData> {
    private final GroupCoordinator coordinator;
    private final TopicManager topicManager;

    public OffsetCommitHandler(GroupCoordinator coordinator, TopicManager topicManager) {
        this.coordinator = coordinator;
        this.topicManager = topicManager;
    }

    @Override
    public CompletableFuture<OffsetCommitResponseData> handle(RequestContext context, OffsetCommitRequestData request) {
        short version = context.apiVersion();
        boolean byId = version >= 10;
        if (byId) {
            // As Kafka: the name of each known id; an unknown one keeps the empty name and is UNKNOWN_TOPIC_ID.
            for (OffsetCommitRequestTopic t : request.topics()) {
                t.setName(topicManager.topic(t.topicId()).map(Topic::name).orElse(""));
            }
        }
        // As Kafka: READ on each topic (READ on the group is the contract's), else TOPIC_AUTHORIZATION_FAILED.
        Set<String> readable = context.access().allowedTopics(Operation.READ,
                request.topics().stream().map(OffsetCommitRequestTopic::name).filter(n -> !byId || !n.isEmpty())
                        .toList());
        List<OffsetManager.Commit> commits = new ArrayList<>();
        for (OffsetCommitRequestTopic t : request.topics()) {
            for (OffsetCommitRequestPartition p : t.partitions()) {
                if (p.partitionIndex() >= 0 && readable.contains(t.name())) {
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
            boolean unknownId = byId && t.name().isEmpty();
            List<OffsetCommitResponsePartition> partitions = new ArrayList<>();
            for (OffsetCommitRequestPartition p : t.partitions()) {
                short error = unknownId ? Errors.UNKNOWN_TOPIC_ID
                        : !readable.contains(t.name()) ? Errors.TOPIC_AUTHORIZATION_FAILED
                        : p.partitionIndex() < 0 ? Errors.UNKNOWN_TOPIC_OR_PARTITION
                        : errors.get(new TopicPartitionRef(t.name(), p.partitionIndex()));
                partitions.add(new OffsetCommitResponsePartition().setPartitionIndex(p.partitionIndex()).setErrorCode(error));
            }
            topics.add(new OffsetCommitResponseTopic().setName(t.name()).setTopicId(t.topicId())
                    .setPartitions(partitions));
        }
        return CompletableFuture.completedFuture(new OffsetCommitResponseData().setTopics(topics));
    }
}
