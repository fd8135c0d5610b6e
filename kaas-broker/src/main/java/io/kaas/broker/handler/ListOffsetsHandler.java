package io.kaas.broker.handler;

import io.kaas.api.auth.Operation;
import io.kaas.api.storage.LogOffsets;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.TimestampOffset;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.topic.StorageErrors;
import io.kaas.broker.topic.LeaderEpochs;
import io.kaas.broker.topic.Topic;
import io.kaas.broker.topic.TopicManager;
import io.kaas.api.storage.EpochStart;
import io.kaas.wire.message.ListOffsetsRequestData.ListOffsetsPartition;
import io.kaas.wire.message.ListOffsetsRequestData.ListOffsetsTopic;
import io.kaas.wire.message.ListOffsetsRequestData;
import io.kaas.wire.message.ListOffsetsResponseData.ListOffsetsPartitionResponse;
import io.kaas.wire.message.ListOffsetsResponseData.ListOffsetsTopicResponse;
import io.kaas.wire.message.ListOffsetsResponseData;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * ListOffsets v1-11: earliest, latest, max-timestamp, earliest-local, latest-tiered, earliest-pending-upload (v11,
 * KIP-1023) and by timestamp. kaas has no remote (tiered) storage, so as Kafka with {@code remote.storage.enable}
 * off: earliest-local is the log start offset, and latest-tiered and earliest-pending-upload answer offset -1
 * (no error).
 */
public final class ListOffsetsHandler implements ApiHandler<ListOffsetsRequestData, ListOffsetsResponseData> {
    static final long LATEST = -1;
    static final long EARLIEST = -2;
    static final long MAX_TIMESTAMP = -3;
    static final long EARLIEST_LOCAL = -4;
    static final long LATEST_TIERED = -5;
    static final long EARLIEST_PENDING_UPLOAD = -6;

    private final TopicManager topics;

    public ListOffsetsHandler(TopicManager topics) {
        this.topics = topics;
    }

    @Override
    public CompletableFuture<ListOffsetsResponseData> handle(RequestContext context, ListOffsetsRequestData request) {
        boolean readCommitted = context.apiVersion() >= 2 && request.isolationLevel() == 1;
        boolean withEpoch = context.apiVersion() >= 4;
        List<ListOffsetsTopicResponse> out = new ArrayList<>();
        for (ListOffsetsTopic t : request.topics()) {
            List<ListOffsetsPartitionResponse> partitions = new ArrayList<>();
            boolean describable = context.access().allowedOnTopic(Operation.DESCRIBE, t.name());
            for (ListOffsetsPartition p : t.partitions()) {
                ListOffsetsPartitionResponse r = describable
                        ? lookup(t.name(), p, readCommitted)
                        : new ListOffsetsPartitionResponse().setPartitionIndex(p.partitionIndex())
                                .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED).setTimestamp(-1).setOffset(-1)
                                .setLeaderEpoch(-1);
                if (!withEpoch) {
                    r.setLeaderEpoch(-1);
                }
                partitions.add(r);
            }
            out.add(new ListOffsetsTopicResponse().setName(t.name()).setPartitions(partitions));
        }
        return CompletableFuture.completedFuture(new ListOffsetsResponseData().setThrottleTimeMs(0).setTopics(out));
    }

    private ListOffsetsPartitionResponse lookup(String topic, ListOffsetsPartition p, boolean readCommitted) {
        ListOffsetsPartitionResponse r = new ListOffsetsPartitionResponse().setPartitionIndex(p.partitionIndex());
        Optional<Topic> t = topics.topic(topic);
        PartitionLog log = t.map(x -> x.log(p.partitionIndex())).orElse(null);
        if (log == null) {
            return r.setErrorCode(topics.absence(topic, p.partitionIndex())).setTimestamp(-1).setOffset(-1)
                    .setLeaderEpoch(-1);
        }
        int leaderEpoch = t.get().leaderEpoch(p.partitionIndex());
        short current = LeaderEpochs.checkCurrent(p.currentLeaderEpoch(), leaderEpoch);
        if (current != Errors.NONE) {
            return r.setErrorCode(current).setTimestamp(-1).setOffset(-1).setLeaderEpoch(-1);
        }
        try {
            LogOffsets offsets = log.offsets();
            List<EpochStart> epochs = LeaderEpochs.of(log, leaderEpoch);
            long ts = p.timestamp();
            if (ts == EARLIEST || ts == EARLIEST_LOCAL) {
                return found(r, -1, offsets.logStartOffset(), LeaderEpochs.epochAt(offsets.logStartOffset(), epochs));
            }
            if (ts == LATEST) {
                return found(r, -1, readCommitted ? offsets.lastStableOffset() : offsets.highWatermark(), leaderEpoch);
            }
            if (ts == LATEST_TIERED || ts == EARLIEST_PENDING_UPLOAD) {
                return found(r, -1, -1, -1);
            }
            Optional<TimestampOffset> hit = ts == MAX_TIMESTAMP ? log.maxTimestamp() : log.offsetForTimestamp(ts);
            long limit = readCommitted ? offsets.lastStableOffset() : offsets.highWatermark();
            if (hit.isEmpty() || hit.get().offset() >= limit || hit.get().offset() < offsets.logStartOffset()) {
                return found(r, -1, -1, -1);
            }
            return found(r, hit.get().timestamp(), hit.get().offset(), hit.get().leaderEpoch());
        } catch (RuntimeException e) {
            return r.setErrorCode(StorageErrors.code(e)).setTimestamp(-1).setOffset(-1).setLeaderEpoch(-1);
        }
    }

    private static ListOffsetsPartitionResponse found(ListOffsetsPartitionResponse r, long timestamp, long offset, int epoch) {
        return r.setErrorCode(Errors.NONE).setTimestamp(timestamp).setOffset(offset).setLeaderEpoch(epoch);
    }
}
