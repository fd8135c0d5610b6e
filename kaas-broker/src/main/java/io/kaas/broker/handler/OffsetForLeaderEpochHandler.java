package io.kaas.broker.handler;

import io.kaas.api.auth.Operation;
import io.kaas.api.storage.PartitionLog;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.topic.LeaderEpochs;
import io.kaas.broker.topic.StorageErrors;
import io.kaas.broker.topic.Topic;
import io.kaas.broker.topic.TopicManager;
import io.kaas.wire.message.OffsetForLeaderEpochRequestData;
import io.kaas.wire.message.OffsetForLeaderEpochRequestData.OffsetForLeaderPartition;
import io.kaas.wire.message.OffsetForLeaderEpochRequestData.OffsetForLeaderTopic;
import io.kaas.wire.message.OffsetForLeaderEpochResponseData;
import io.kaas.wire.message.OffsetForLeaderEpochResponseData.EpochEndOffset;
import io.kaas.wire.message.OffsetForLeaderEpochResponseData.OffsetForLeaderTopicResult;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * OffsetForLeaderEpoch v2-4 (KIP-320: consumers validate their position after a leader change, and find a
 * truncated log): for each partition, where the requested leader epoch ends ({@link LeaderEpochs}). As Kafka:
 * CLUSTER_ACTION on the cluster allows every topic, else each needs DESCRIBE (TOPIC_AUTHORIZATION_FAILED); an
 * unknown topic or partition is UNKNOWN_TOPIC_OR_PARTITION, one written by another broker NOT_LEADER_OR_FOLLOWER; a
 * {@code current_leader_epoch} below the partition's
 * epoch is FENCED_LEADER_EPOCH, above it UNKNOWN_LEADER_EPOCH (-1: not checked); an unreadable log answers its
 * storage error.
 */
public final class OffsetForLeaderEpochHandler
        implements ApiHandler<OffsetForLeaderEpochRequestData, OffsetForLeaderEpochResponseData> {
    /** {@code current_leader_epoch} when the client does not ask for the check. */
    static final int NO_CURRENT_EPOCH = -1;

    private final TopicManager topics;

    public OffsetForLeaderEpochHandler(TopicManager topics) {
        this.topics = topics;
    }

    @Override
    public CompletableFuture<OffsetForLeaderEpochResponseData> handle(RequestContext context,
                                                                      OffsetForLeaderEpochRequestData request) {
        Set<String> names = request.topics().stream().map(OffsetForLeaderTopic::topic).collect(Collectors.toSet());
        Set<String> describable = context.access().allowedOnCluster(Operation.CLUSTER_ACTION) ? names
                : context.access().allowedTopics(Operation.DESCRIBE, names);
        List<OffsetForLeaderTopicResult> out = new ArrayList<>();
        for (OffsetForLeaderTopic t : request.topics()) {
            List<EpochEndOffset> partitions = new ArrayList<>();
            for (OffsetForLeaderPartition p : t.partitions()) {
                partitions.add(describable.contains(t.topic())
                        ? endOffset(t.topic(), p)
                        : error(p.partition(), Errors.TOPIC_AUTHORIZATION_FAILED));
            }
            out.add(new OffsetForLeaderTopicResult().setTopic(t.topic()).setPartitions(partitions));
        }
        return CompletableFuture.completedFuture(new OffsetForLeaderEpochResponseData().setThrottleTimeMs(0).setTopics(out));
    }

    private EpochEndOffset endOffset(String topic, OffsetForLeaderPartition p) {
        Optional<Topic> t = topics.topic(topic);
        PartitionLog log = t.map(x -> x.log(p.partition())).orElse(null);
        if (log == null) {
            return error(p.partition(), topics.absence(topic, p.partition()));
        }
        int leaderEpoch = t.get().leaderEpoch(p.partition());
        short current = LeaderEpochs.checkCurrent(p.currentLeaderEpoch(), leaderEpoch);
        if (current != Errors.NONE) {
            return error(p.partition(), current);
        }
        try {
            LeaderEpochs.EpochEnd end = LeaderEpochs.endOffsetFor(p.leaderEpoch(), LeaderEpochs.of(log, leaderEpoch),
                    log.offsets().highWatermark());
            return new EpochEndOffset().setPartition(p.partition()).setErrorCode(Errors.NONE)
                    .setLeaderEpoch(end.epoch()).setEndOffset(end.endOffset());
        } catch (RuntimeException e) {
            return error(p.partition(), StorageErrors.code(e));
        }
    }

    private static EpochEndOffset error(int partition, short code) {
        return new EpochEndOffset().setPartition(partition).setErrorCode(code)
                .setLeaderEpoch(LeaderEpochs.UNDEFINED).setEndOffset(LeaderEpochs.UNDEFINED);
    }
}
