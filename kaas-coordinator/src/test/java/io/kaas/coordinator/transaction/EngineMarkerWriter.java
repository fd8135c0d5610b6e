package io.kaas.coordinator.transaction;

import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.api.cluster.TopicRecord;
import io.kaas.api.record.ProducedBatches;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.StorageEngine;
import io.kaas.records.BatchBuilder;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The coordinator's collaborator in tests: appends real markers durably to real partitions of a segment engine, as
 * the broker's WriteTxnMarkers path does; answers UNKNOWN_TOPIC_OR_PARTITION for a partition the store does not
 * have. Failures can be injected: {@link #down} fails every write, {@link #failTimes} the next n of a partition.
 */
final class EngineMarkerWriter implements MarkerWriter {
    /** One marker written. */
    record Marker(TopicPartitionRef partition, long producerId, short producerEpoch, boolean commit) {
    }

    private final StorageEngine engine;
    private final ClusterStateStore store;
    final List<Marker> written = Collections.synchronizedList(new ArrayList<>());
    final AtomicInteger calls = new AtomicInteger();
    private final Map<TopicPartitionRef, AtomicInteger> failures = new ConcurrentHashMap<>();
    volatile boolean down;
    /** Partitions that answer INVALID_PRODUCER_EPOCH (they know a newer epoch of the producer). */
    final Set<TopicPartitionRef> refusing = ConcurrentHashMap.newKeySet();

    EngineMarkerWriter(StorageEngine engine, ClusterStateStore store) {
        this.engine = engine;
        this.store = store;
    }

    void failTimes(TopicPartitionRef tp, int n) {
        failures.put(tp, new AtomicInteger(n));
    }

    @Override
    public CompletableFuture<Map<TopicPartitionRef, Short>> write(long producerId, short producerEpoch,
                                                                  int coordinatorEpoch, boolean commit,
                                                                  Set<TopicPartitionRef> partitions) {
        calls.incrementAndGet();
        Map<TopicPartitionRef, Short> out = new LinkedHashMap<>();
        for (TopicPartitionRef tp : partitions) {
            Optional<TopicRecord> topic = store.topic(tp.topic());
            if (topic.isEmpty() || tp.partition() >= topic.get().partitions()) {
                out.put(tp, Errors.UNKNOWN_TOPIC_OR_PARTITION);
                continue;
            }
            if (refusing.contains(tp)) {
                out.put(tp, Errors.INVALID_PRODUCER_EPOCH);
                continue;
            }
            AtomicInteger f = failures.get(tp);
            if (down || (f != null && f.getAndDecrement() > 0)) {
                out.put(tp, Errors.KAFKA_STORAGE_ERROR);
                continue;
            }
            try {
                engine.openPartition(new PartitionKey(tp.topic(), topic.get().topicId(), tp.partition()),
                                LogConfig.defaults())
                        .append(ProducedBatches.validate(BatchBuilder.marker(producerId, producerEpoch,
                                coordinatorEpoch, commit, System.currentTimeMillis())), true).join();
                written.add(new Marker(tp, producerId, producerEpoch, commit));
                out.put(tp, Errors.NONE);
            } catch (Exception e) {
                out.put(tp, Errors.KAFKA_STORAGE_ERROR);
            }
        }
        return CompletableFuture.completedFuture(out);
    }
}
