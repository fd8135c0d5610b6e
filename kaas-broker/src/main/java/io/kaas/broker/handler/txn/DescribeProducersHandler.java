package io.kaas.broker.handler.txn;

import io.kaas.api.auth.Operation;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.ProducerState;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.topic.StorageErrors;
import io.kaas.broker.topic.Topic;
import io.kaas.broker.topic.TopicManager;
import io.kaas.broker.topic.TopicNames;
import io.kaas.wire.message.DescribeProducersRequestData;
import io.kaas.wire.message.DescribeProducersRequestData.TopicRequest;
import io.kaas.wire.message.DescribeProducersResponseData;
import io.kaas.wire.message.DescribeProducersResponseData.PartitionResponse;
import io.kaas.wire.message.DescribeProducersResponseData.TopicResponse;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * DescribeProducers v0 (KIP-664, {@code kafka-transactions describe-producers} and {@code find-hanging}): the
 * active producers of each partition as its storage engine keeps them ({@link PartitionLog#producers()}): id,
 * epoch, last sequence and timestamp, coordinator epoch, and the first offset of its open transaction (-1 for
 * none). As Kafka: an invalid topic name is INVALID_TOPIC_EXCEPTION with Kafka's message, a topic the principal may
 * not READ TOPIC_AUTHORIZATION_FAILED, an unknown topic or partition UNKNOWN_TOPIC_OR_PARTITION.
 */
public final class DescribeProducersHandler
        implements ApiHandler<DescribeProducersRequestData, DescribeProducersResponseData> {
    private final TopicManager topics;

    public DescribeProducersHandler(TopicManager topics) {
        this.topics = topics;
    }

    @Override
    public CompletableFuture<DescribeProducersResponseData> handle(RequestContext context,
                                                                   DescribeProducersRequestData request) {
        List<TopicResponse> out = new ArrayList<>();
        for (TopicRequest t : request.topics()) {
            String invalid = TopicNames.invalidReason(t.name());
            short topicError = invalid != null ? Errors.INVALID_TOPIC_EXCEPTION
                    : !context.access().allowedOnTopic(Operation.READ, t.name()) ? Errors.TOPIC_AUTHORIZATION_FAILED
                    : Errors.NONE;
            Optional<Topic> topic = topicError == Errors.NONE ? topics.topic(t.name()) : Optional.empty();
            if (topicError == Errors.NONE && topic.isEmpty()) {
                topicError = Errors.UNKNOWN_TOPIC_OR_PARTITION;
            }
            List<PartitionResponse> partitions = new ArrayList<>();
            for (int p : t.partitionIndexes()) {
                PartitionResponse r = new PartitionResponse().setPartitionIndex(p).setActiveProducers(new ArrayList<>());
                if (topicError != Errors.NONE) {
                    partitions.add(r.setErrorCode(topicError).setErrorMessage(invalid));
                    continue;
                }
                partitions.add(topic.get().log(p) == null && topic.get().hasPartition(p)
                        ? r.setErrorCode(Errors.NOT_LEADER_OR_FOLLOWER).setErrorMessage(null)
                        : describe(topic.get().log(p), r));
            }
            out.add(new TopicResponse().setName(t.name()).setPartitions(partitions));
        }
        return CompletableFuture.completedFuture(new DescribeProducersResponseData().setThrottleTimeMs(0).setTopics(out));
    }

    private static PartitionResponse describe(PartitionLog log, PartitionResponse r) {
        if (log == null) {
            return r.setErrorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION);
        }
        List<ProducerState> producers;
        try {
            producers = log.producers();
        } catch (RuntimeException e) {
            return r.setErrorCode(StorageErrors.code(e)).setErrorMessage(StorageErrors.message(e));
        }
        List<DescribeProducersResponseData.ProducerState> active = new ArrayList<>(producers.size());
        for (ProducerState s : producers) {
            active.add(new DescribeProducersResponseData.ProducerState().setProducerId(s.producerId())
                    .setProducerEpoch(s.producerEpoch()).setLastSequence(s.lastSequence())
                    .setLastTimestamp(s.lastTimestamp()).setCoordinatorEpoch(s.coordinatorEpoch())
                    .setCurrentTxnStartOffset(s.currentTxnStartOffset()));
        }
        return r.setErrorCode(Errors.NONE).setErrorMessage(null).setActiveProducers(active);
    }
}
