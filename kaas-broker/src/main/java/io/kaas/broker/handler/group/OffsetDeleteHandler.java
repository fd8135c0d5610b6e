package io.kaas.broker.handler.group;

import io.kaas.api.auth.Operation;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.coordinator.group.GroupCoordinator;
import io.kaas.wire.message.OffsetDeleteRequestData;
import io.kaas.wire.message.OffsetDeleteRequestData.OffsetDeleteRequestPartition;
import io.kaas.wire.message.OffsetDeleteRequestData.OffsetDeleteRequestTopic;
import io.kaas.wire.message.OffsetDeleteResponseData;
import io.kaas.wire.message.OffsetDeleteResponseData.OffsetDeleteResponsePartition;
import io.kaas.wire.message.OffsetDeleteResponseData.OffsetDeleteResponseTopic;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * OffsetDelete v0: removes committed offsets of an Empty group, or of topics a consumer group does not
 * subscribe to (GROUP_SUBSCRIBED_TO_TOPIC otherwise; NON_EMPTY_GROUP for other non-empty groups).
 */
public final class OffsetDeleteHandler implements ApiHandler<OffsetDeleteRequestData, OffsetDeleteResponseData> {
    private final GroupCoordinator coordinator;

    public OffsetDeleteHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletableFuture<OffsetDeleteResponseData> handle(RequestContext context, OffsetDeleteRequestData request) {
        // As Kafka: READ on each topic (DELETE on the group is the contract's), else TOPIC_AUTHORIZATION_FAILED.
        Set<String> readable = context.access().allowedTopics(Operation.READ,
                request.topics().stream().map(OffsetDeleteRequestTopic::name).toList());
        List<TopicPartitionRef> partitions = new ArrayList<>();
        for (OffsetDeleteRequestTopic t : request.topics()) {
            for (OffsetDeleteRequestPartition p : t.partitions()) {
                if (p.partitionIndex() >= 0 && readable.contains(t.name())) {
                    partitions.add(new TopicPartitionRef(t.name(), p.partitionIndex()));
                }
            }
        }
        Map<TopicPartitionRef, Short> errors = new HashMap<>();
        short error = coordinator.offsets().delete(request.groupId(), partitions, errors);
        OffsetDeleteResponseData response = new OffsetDeleteResponseData().setErrorCode(error);
        if (error != Errors.NONE) {
            return CompletableFuture.completedFuture(response);
        }
        List<OffsetDeleteResponseTopic> topics = new ArrayList<>();
        for (OffsetDeleteRequestTopic t : request.topics()) {
            List<OffsetDeleteResponsePartition> ps = new ArrayList<>();
            for (OffsetDeleteRequestPartition p : t.partitions()) {
                Short e = !readable.contains(t.name()) ? Short.valueOf(Errors.TOPIC_AUTHORIZATION_FAILED)
                        : p.partitionIndex() < 0 ? null : errors.get(new TopicPartitionRef(t.name(), p.partitionIndex()));
                ps.add(new OffsetDeleteResponsePartition().setPartitionIndex(p.partitionIndex())
                        .setErrorCode(e == null ? Errors.UNKNOWN_TOPIC_OR_PARTITION : e));
            }
            topics.add(new OffsetDeleteResponseTopic().setName(t.name()).setPartitions(ps));
        }
        return CompletableFuture.completedFuture(response.setTopics(topics));
    }
}
