package io.kaas.broker.handler.txn;

import io.kaas.api.auth.Operation;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.transaction.MarkerAppender;
import io.kaas.wire.message.WriteTxnMarkersRequestData;
import io.kaas.wire.message.WriteTxnMarkersRequestData.WritableTxnMarker;
import io.kaas.wire.message.WriteTxnMarkersRequestData.WritableTxnMarkerTopic;
import io.kaas.wire.message.WriteTxnMarkersResponseData;
import io.kaas.wire.message.WriteTxnMarkersResponseData.WritableTxnMarkerPartitionResult;
import io.kaas.wire.message.WriteTxnMarkersResponseData.WritableTxnMarkerResult;
import io.kaas.wire.message.WriteTxnMarkersResponseData.WritableTxnMarkerTopicResult;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;

/**
 * WriteTxnMarkers v1-2, sent by a transaction coordinator: appends each COMMIT or ABORT marker to each of its
 * partitions, durably ({@link MarkerAppender}, the path the in-process coordinator uses too), answering each
 * partition's error once its marker is fsynced: UNKNOWN_TOPIC_OR_PARTITION for a partition that does not exist,
 * INVALID_PRODUCER_EPOCH for an epoch older than the partition's. v2 (KIP-1228, Kafka 4.4) says which transaction
 * version wrote each marker: a transactions-V2 marker (2+) carries an epoch the coordinator bumped, so one not
 * strictly above the partition's epoch for the producer is INVALID_PRODUCER_EPOCH too; 0-1 as v1. As Kafka, the
 * sender needs ALTER or
 * CLUSTER_ACTION on the cluster, else every partition is answered CLUSTER_AUTHORIZATION_FAILED.
 */
public final class WriteTxnMarkersHandler implements ApiHandler<WriteTxnMarkersRequestData, WriteTxnMarkersResponseData> {
    private final MarkerAppender appender;

    public WriteTxnMarkersHandler(MarkerAppender appender) {
        this.appender = appender;
    }

    @Override
    public CompletableFuture<WriteTxnMarkersResponseData> handle(RequestContext context, WriteTxnMarkersRequestData request) {
        if (!context.access().allowedOnCluster(Operation.ALTER)
                && !context.access().allowedOnCluster(Operation.CLUSTER_ACTION)) {
            return CompletableFuture.completedFuture(answer(request, new ArrayList<>(), (marker, p) ->
                    CompletableFuture.completedFuture(Errors.CLUSTER_AUTHORIZATION_FAILED)));
        }
        List<CompletableFuture<Void>> set = new ArrayList<>();
        boolean versioned = context.apiVersion() >= 2;
        WriteTxnMarkersResponseData pending = answer(request, set, (marker, p) -> appender.append(p.topic, p.partition,
                marker.producerId(), marker.producerEpoch(), marker.coordinatorEpoch(), marker.transactionResult(),
                versioned && marker.transactionVersion() >= 2));
        return CompletableFuture.allOf(set.toArray(CompletableFuture[]::new)).thenApply(v -> pending);
    }

    private record Partition(String topic, int partition) {
    }

    /** The response; each partition's error is set when its write completes, and {@code set} completes after. */
    private static WriteTxnMarkersResponseData answer(WriteTxnMarkersRequestData request, List<CompletableFuture<Void>> set,
                                                      BiFunction<WritableTxnMarker, Partition, CompletableFuture<Short>> write) {
        List<WritableTxnMarkerResult> markers = new ArrayList<>();
        for (WritableTxnMarker marker : request.markers()) {
            List<WritableTxnMarkerTopicResult> topics = new ArrayList<>();
            for (WritableTxnMarkerTopic topic : marker.topics()) {
                List<WritableTxnMarkerPartitionResult> partitions = new ArrayList<>();
                for (int p : topic.partitionIndexes()) {
                    WritableTxnMarkerPartitionResult result = new WritableTxnMarkerPartitionResult().setPartitionIndex(p);
                    partitions.add(result);
                    if (p < 0) {
                        result.setErrorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION);
                    } else {
                        set.add(write.apply(marker, new Partition(topic.name(), p)).thenAccept(result::setErrorCode));
                    }
                }
                topics.add(new WritableTxnMarkerTopicResult().setName(topic.name()).setPartitions(partitions));
            }
            markers.add(new WritableTxnMarkerResult().setProducerId(marker.producerId()).setTopics(topics));
        }
        return new WriteTxnMarkersResponseData().setMarkers(markers);
    }
}
