package io.kaas.broker.handler;

import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import io.kaas.broker.BrokerContext;
import io.kaas.broker.cluster.StoreClusterView;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.topic.Topic;
import io.kaas.broker.topic.TopicManager;
import io.kaas.broker.topic.TopicNames;
import io.kaas.wire.message.DescribeTopicPartitionsRequestData.TopicRequest;
import io.kaas.wire.message.DescribeTopicPartitionsRequestData;
import io.kaas.wire.message.DescribeTopicPartitionsResponseData.Cursor;
import io.kaas.wire.message.DescribeTopicPartitionsResponseData.DescribeTopicPartitionsResponsePartition;
import io.kaas.wire.message.DescribeTopicPartitionsResponseData.DescribeTopicPartitionsResponseTopic;
import io.kaas.wire.message.DescribeTopicPartitionsResponseData;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * DescribeTopicPartitions v0 (KIP-966; kafka-topics --describe in 4.x): topics in name order, at most
 * {@code response_partition_limit} partitions (capped at 2000), resumed from the cursor.
 */
public final class DescribeTopicPartitionsHandler
        implements ApiHandler<DescribeTopicPartitionsRequestData, DescribeTopicPartitionsResponseData> {
    private static final int MAX_PARTITIONS = 2000;
    private static final UUID ZERO = new UUID(0, 0);

    private final BrokerContext ctx;
    private final TopicManager topics;

    public DescribeTopicPartitionsHandler(BrokerContext ctx, TopicManager topics) {
        this.ctx = ctx;
        this.topics = topics;
    }

    @Override
    public CompletableFuture<DescribeTopicPartitionsResponseData> handle(RequestContext context,
                                                                         DescribeTopicPartitionsRequestData request) {
        boolean all = request.topics().isEmpty();
        TreeSet<String> names = new TreeSet<>();
        if (all) {
            topics.topics().forEach(t -> names.add(t.name()));
        } else {
            request.topics().forEach((TopicRequest t) -> names.add(t.name()));
        }
        // As Kafka: a listing leaves out undescribable topics; a named one answers TOPIC_AUTHORIZATION_FAILED.
        Set<String> describable = context.access().allowedTopics(Operation.DESCRIBE, names);
        if (all) {
            names.retainAll(describable);
        }
        var cursor = request.cursor();
        if (cursor != null && (cursor.partitionIndex() < 0 || !all && !names.contains(cursor.topicName()))) {
            // Kafka's InvalidRequestException: its error response, INVALID_REQUEST on every requested topic.
            return CompletableFuture.completedFuture(invalidRequest(request));
        }
        String from = cursor == null ? null : cursor.topicName();
        int startIndex = cursor == null ? 0 : cursor.partitionIndex();
        int remaining = Math.min(Math.max(request.responsePartitionLimit(), 1), MAX_PARTITIONS);
        DescribeTopicPartitionsResponseData response = new DescribeTopicPartitionsResponseData().setThrottleTimeMs(0)
                .setNextCursor(null);
        List<DescribeTopicPartitionsResponseTopic> out = new ArrayList<>();
        for (String name : from == null ? names : names.tailSet(from, true)) {
            if (remaining == 0) {
                response.setNextCursor(new Cursor().setTopicName(name).setPartitionIndex(0));
                break;
            }
            int start = name.equals(from) ? startIndex : 0;
            if (!describable.contains(name)) {
                out.add(new DescribeTopicPartitionsResponseTopic().setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED)
                        .setName(name).setTopicId(ZERO).setIsInternal(false).setPartitions(new ArrayList<>()));
                continue;
            }
            Optional<Topic> topic = topics.topic(name);
            if (topic.isEmpty()) {
                if (!all) {
                    short error = TopicNames.isValid(name) ? Errors.UNKNOWN_TOPIC_OR_PARTITION : Errors.INVALID_TOPIC_EXCEPTION;
                    out.add(new DescribeTopicPartitionsResponseTopic().setErrorCode(error).setName(name).setTopicId(ZERO)
                            .setIsInternal(false).setPartitions(new ArrayList<>()));
                }
                continue;
            }
            Topic t = topic.get();
            int end = Math.min(t.partitionCount(), start + remaining);
            out.add(describe(t, start, end, context.access().authorizedOperations(ResourceType.TOPIC, t.name()),
                    context.listenerName() != null ? context.listenerName() : ctx.advertisedEndpoint().listenerName()));
            remaining -= Math.max(0, end - start);
            if (end < t.partitionCount()) {
                response.setNextCursor(new Cursor().setTopicName(name).setPartitionIndex(end));
                break;
            }
        }
        return CompletableFuture.completedFuture(response.setTopics(out));
    }

    private DescribeTopicPartitionsResponseTopic describe(Topic t, int start, int end, int authorizedOperations,
                                                          String listener) {
        StoreClusterView view = ctx.cluster().view();
        List<DescribeTopicPartitionsResponsePartition> partitions = new ArrayList<>();
        for (int p = start; p < end; p++) {
            StoreClusterView.LeaderInfo l = view.leaderInfo(t.name(), p, listener, true);
            List<Integer> replicas = l.leader() == -1 ? List.of() : List.of(l.leader());
            partitions.add(new DescribeTopicPartitionsResponsePartition().setErrorCode(l.error())
                    .setPartitionIndex(p).setLeaderId(l.leader()).setLeaderEpoch(l.epoch())
                    .setReplicaNodes(new ArrayList<>(replicas)).setIsrNodes(new ArrayList<>(replicas))
                    .setEligibleLeaderReplicas(new ArrayList<>()).setLastKnownElr(new ArrayList<>())
                    .setOfflineReplicas(new ArrayList<>()));
        }
        return new DescribeTopicPartitionsResponseTopic().setErrorCode(Errors.NONE).setName(t.name())
                .setTopicId(t.id()).setIsInternal(TopicNames.isInternal(t.name())).setPartitions(partitions)
                .setTopicAuthorizedOperations(authorizedOperations);
    }

    private static DescribeTopicPartitionsResponseData invalidRequest(DescribeTopicPartitionsRequestData request) {
        List<DescribeTopicPartitionsResponseTopic> out = new ArrayList<>();
        for (TopicRequest t : request.topics()) {
            out.add(new DescribeTopicPartitionsResponseTopic().setName(t.name()).setErrorCode(Errors.INVALID_REQUEST)
                    .setIsInternal(false).setPartitions(new ArrayList<>()));
        }
        return new DescribeTopicPartitionsResponseData().setThrottleTimeMs(0).setTopics(out).setNextCursor(null);
    }
}
