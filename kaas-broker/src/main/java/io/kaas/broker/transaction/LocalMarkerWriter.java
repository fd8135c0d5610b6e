package io.kaas.broker.transaction;

import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.coordinator.transaction.MarkerWriter;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The coordinator's {@link MarkerWriter} on one broker: the WriteTxnMarkers path run in process (the same
 * {@link MarkerAppender} the WriteTxnMarkers handler uses), every partition in parallel, each answered once its
 * marker is durable. With several brokers, partitions led elsewhere will get the same request over the
 * inter-broker listener. Thread-safe.
 */
public final class LocalMarkerWriter implements MarkerWriter {
    private final MarkerAppender appender;

    public LocalMarkerWriter(MarkerAppender appender) {
        this.appender = appender;
    }

    @Override
    public CompletableFuture<Map<TopicPartitionRef, Short>> write(long producerId, short producerEpoch,
                                                                  int coordinatorEpoch, boolean commit,
                                                                  Set<TopicPartitionRef> partitions) {
        List<TopicPartitionRef> order = new ArrayList<>(partitions);
        List<CompletableFuture<Short>> appends = new ArrayList<>(order.size());
        for (TopicPartitionRef tp : order) {
            CompletableFuture<Short> one;
            try {
                one = appender.append(tp.topic(), tp.partition(), producerId, producerEpoch, coordinatorEpoch, commit);
            } catch (RuntimeException e) {
                one = CompletableFuture.failedFuture(e);
            }
            appends.add(one);
        }
        return CompletableFuture.allOf(appends.toArray(CompletableFuture[]::new)).handle((v, e) -> {
            Map<TopicPartitionRef, Short> out = new HashMap<>();
            for (int i = 0; i < order.size(); i++) {
                CompletableFuture<Short> f = appends.get(i);
                out.put(order.get(i), f.isCompletedExceptionally() ? Errors.UNKNOWN_SERVER_ERROR
                        : f.join());
            }
            return out;
        });
    }
}
