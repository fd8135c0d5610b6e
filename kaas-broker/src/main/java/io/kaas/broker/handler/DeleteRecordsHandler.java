package io.kaas.broker.handler;

import io.kaas.api.auth.Operation;
import io.kaas.api.storage.LogOffsets;
import io.kaas.api.storage.PartitionLog;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.topic.StorageErrors;
import io.kaas.broker.topic.TopicManager;
import io.kaas.broker.topic.TopicNames;
import io.kaas.wire.message.DeleteRecordsRequestData.DeleteRecordsPartition;
import io.kaas.wire.message.DeleteRecordsRequestData.DeleteRecordsTopic;
import io.kaas.wire.message.DeleteRecordsRequestData;
import io.kaas.wire.message.DeleteRecordsResponseData.DeleteRecordsPartitionResult;
import io.kaas.wire.message.DeleteRecordsResponseData.DeleteRecordsTopicResult;
import io.kaas.wire.message.DeleteRecordsResponseData;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * DeleteRecords v0-2: advances the log start offset; -1 means the high watermark. Kafka's internal topics
 * ({@code __transaction_state}) are INVALID_TOPIC_EXCEPTION: their records are removed by their coordinator only.
 */
public final class DeleteRecordsHandler implements ApiHandler<DeleteRecordsRequestData, DeleteRecordsResponseData> {
    private final TopicManager topics;

    public DeleteRecordsHandler(TopicManager topics) {
        this.topics = topics;
    }

    @Override
    public CompletableFuture<DeleteRecordsResponseData> handle(RequestContext context, DeleteRecordsRequestData request) {
        List<DeleteRecordsTopicResult> out = new ArrayList<>();
        List<CompletableFuture<?>> pending = new ArrayList<>();
        for (DeleteRecordsTopic t : request.topics()) {
            List<DeleteRecordsPartitionResult> partitions = new ArrayList<>();
            boolean deletable = context.access().allowedOnTopic(Operation.DELETE, t.name());
            for (DeleteRecordsPartition p : t.partitions()) {
                DeleteRecordsPartitionResult r = new DeleteRecordsPartitionResult().setPartitionIndex(p.partitionIndex())
                        .setLowWatermark(-1);
                partitions.add(r);
                if (!deletable) {
                    r.setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED);
                    continue;
                }
                if (TopicNames.isInternal(t.name())) {
                    r.setErrorCode(Errors.INVALID_TOPIC_EXCEPTION);
                    continue;
                }
                pending.add(delete(topics.log(t.name(), p.partitionIndex()), p.offset(), r,
                        topics.absence(t.name(), p.partitionIndex())));
            }
            out.add(new DeleteRecordsTopicResult().setName(t.name()).setPartitions(partitions));
        }
        return CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new))
                .thenApply(v -> new DeleteRecordsResponseData().setThrottleTimeMs(0).setTopics(out));
    }

    private static CompletableFuture<?> delete(PartitionLog log, long requested, DeleteRecordsPartitionResult r,
                                               short absence) {
        if (log == null) {
            // Only the partition's writer deletes records: elsewhere NOT_LEADER_OR_FOLLOWER, as Kafka.
            r.setErrorCode(absence);
            return CompletableFuture.completedFuture(null);
        }
        try {
            LogOffsets offsets = log.offsets();
            long offset = requested == -1 ? offsets.highWatermark() : requested;
            if (offset < 0 || offset > offsets.highWatermark()) {
                r.setErrorCode(Errors.OFFSET_OUT_OF_RANGE);
                return CompletableFuture.completedFuture(null);
            }
            if (offset <= offsets.logStartOffset()) {
                r.setErrorCode(Errors.NONE).setLowWatermark(offsets.logStartOffset());
                return CompletableFuture.completedFuture(null);
            }
            return log.deleteRecordsBefore(offset).handle((low, e) -> {
                synchronized (r) {
                    if (e != null) {
                        r.setErrorCode(StorageErrors.code(e)).setLowWatermark(-1);
                    } else {
                        r.setErrorCode(Errors.NONE).setLowWatermark(low);
                    }
                }
                return null;
            });
        } catch (RuntimeException e) {
            r.setErrorCode(StorageErrors.code(e));
            return CompletableFuture.completedFuture(null);
        }
    }
}
