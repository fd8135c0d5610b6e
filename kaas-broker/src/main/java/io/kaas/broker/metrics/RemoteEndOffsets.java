package io.kaas.broker.metrics;

import io.kaas.api.cluster.PartitionLeader;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.broker.cluster.ClusterView;
import io.kaas.broker.interbroker.BrokerClient;
import io.kaas.wire.message.ListOffsetsRequestData;
import io.kaas.wire.message.ListOffsetsRequestData.ListOffsetsPartition;
import io.kaas.wire.message.ListOffsetsRequestData.ListOffsetsTopic;
import io.kaas.wire.message.ListOffsetsResponseData;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The end offsets (high watermarks) of partitions another broker writes, for the consumer-group lag this broker's
 * groups report on them: asked of each partition's writer with ListOffsets over the inter-broker listener, off the
 * scrape path, and cached. A scrape reads the cache and, when it is older than {@code maxAgeMs}, starts one refresh
 * in the background; the next scrape sees its answers. A partition whose writer cannot be asked keeps no value (its
 * lag is left out rather than shown wrong).
 */
public final class RemoteEndOffsets {
    private static final Logger LOG = LoggerFactory.getLogger(RemoteEndOffsets.class);
    private static final long LATEST = -1L;

    private final ClusterView view;
    private final BrokerClient client;
    private final long maxAgeNanos;
    private final Map<TopicPartitionRef, Long> ends = new ConcurrentHashMap<>();
    private final AtomicBoolean refreshing = new AtomicBoolean();
    private volatile long refreshedAt = System.nanoTime() - TimeUnit.DAYS.toNanos(1);

    public RemoteEndOffsets(ClusterView view, BrokerClient client, long maxAgeMs) {
        this.view = view;
        this.client = client;
        this.maxAgeNanos = TimeUnit.MILLISECONDS.toNanos(maxAgeMs);
    }

    /** The cached end offset of {@code tp}, empty when none is known yet. */
    OptionalLong endOffset(TopicPartitionRef tp) {
        Long end = ends.get(tp);
        return end == null ? OptionalLong.empty() : OptionalLong.of(end);
    }

    /**
     * The partitions whose end offsets the next scrapes want: a refresh starts in the background when the cache is
     * older than its maximum age and none is running. Never blocks.
     */
    void want(Collection<TopicPartitionRef> partitions) {
        ends.keySet().retainAll(Set.copyOf(partitions));
        if (partitions.isEmpty() || System.nanoTime() - refreshedAt < maxAgeNanos || !refreshing.compareAndSet(false, true)) {
            return;
        }
        refreshedAt = System.nanoTime();
        Map<Integer, List<TopicPartitionRef>> byWriter = new HashMap<>();
        for (TopicPartitionRef tp : partitions) {
            view.leader(tp.topic(), tp.partition()).map(PartitionLeader::leader)
                .filter(node -> node != view.localNodeId())
                .ifPresent(node -> byWriter.computeIfAbsent(node, n -> new ArrayList<>()).add(tp));
        }
        List<java.util.concurrent.CompletableFuture<Void>> asked = new ArrayList<>();
        byWriter.forEach((node, tps) -> asked.add(ask(node, tps)));
        java.util.concurrent.CompletableFuture.allOf(asked.toArray(java.util.concurrent.CompletableFuture[]::new))
            .whenComplete((v, e) -> refreshing.set(false));
    }

    private java.util.concurrent.CompletableFuture<Void> ask(int node, List<TopicPartitionRef> tps) {
        Map<String, ListOffsetsTopic> topics = new HashMap<>();
        for (TopicPartitionRef tp : tps) {
            topics.computeIfAbsent(tp.topic(), t -> new ListOffsetsTopic().setName(t)).partitions()
                .add(new ListOffsetsPartition().setPartitionIndex(tp.partition()).setCurrentLeaderEpoch(-1)
                    .setTimestamp(LATEST));
        }
        ListOffsetsRequestData request = new ListOffsetsRequestData().setReplicaId(-1).setIsolationLevel((byte) 0)
            .setTopics(new ArrayList<>(topics.values()));
        return client.send(node, request, (short) 1).handle((response, error) -> {
            if (error != null) {
                LOG.atDebug().addKeyValue("broker", node).log("end offsets of {} partitions not read from broker {}: {}",
                    tps.size(), node, error.toString());
                tps.forEach(ends::remove);
                return null;
            }
            for (var t : ((ListOffsetsResponseData) response).topics()) {
                for (var p : t.partitions()) {
                    TopicPartitionRef tp = new TopicPartitionRef(t.name(), p.partitionIndex());
                    if (p.errorCode() == Errors.NONE && p.offset() >= 0) {
                        ends.put(tp, p.offset());
                    } else {
                        ends.remove(tp);
                    }
                }
            }
            return null;
        });
    }
}
