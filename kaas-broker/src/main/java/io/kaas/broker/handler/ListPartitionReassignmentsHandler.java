package io.kaas.broker.handler;

import io.kaas.api.cluster.PartitionLeader;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.broker.BrokerContext;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.topic.Topic;
import io.kaas.broker.topic.TopicManager;
import io.kaas.wire.message.ListPartitionReassignmentsRequestData;
import io.kaas.wire.message.ListPartitionReassignmentsRequestData.ListPartitionReassignmentsTopics;
import io.kaas.wire.message.ListPartitionReassignmentsResponseData;
import io.kaas.wire.message.ListPartitionReassignmentsResponseData.OngoingPartitionReassignment;
import io.kaas.wire.message.ListPartitionReassignmentsResponseData.OngoingTopicReassignment;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * ListPartitionReassignments v0 ({@code kafka-reassign-partitions --list/--verify}): the moves requested and not yet
 * carried out, as Kafka lists a reassignment in progress: replicas the target and the current writer, adding the
 * target, removing the current writer. Null topics list every pending move; named ones list theirs (an unknown topic,
 * or a partition not moving, is left out, as Kafka). DESCRIBE on the cluster is checked by the pipeline.
 */
public final class ListPartitionReassignmentsHandler
        implements ApiHandler<ListPartitionReassignmentsRequestData, ListPartitionReassignmentsResponseData> {
    private final BrokerContext ctx;
    private final TopicManager topics;

    public ListPartitionReassignmentsHandler(BrokerContext ctx, TopicManager topics) {
        this.ctx = ctx;
        this.topics = topics;
    }

    @Override
    public CompletableFuture<ListPartitionReassignmentsResponseData> handle(RequestContext context,
            ListPartitionReassignmentsRequestData request) {
        Map<TopicPartitionRef, Integer> pending = ctx.clusterStore().reassignmentRequests();
        Map<String, Map<Integer, Integer>> byTopic = new TreeMap<>();
        pending.forEach((ref, target) -> {
            if (target >= 0) {
                byTopic.computeIfAbsent(ref.topic(), t -> new TreeMap<>()).put(ref.partition(), target);
            }
        });
        List<OngoingTopicReassignment> out = new ArrayList<>();
        if (request.topics() == null) {
            byTopic.forEach((topic, moves) -> add(out, topic, moves, null));
        } else {
            for (ListPartitionReassignmentsTopics t : request.topics()) {
                Optional<Topic> topic = topics.topic(t.name());
                if (topic.isPresent() && byTopic.containsKey(t.name())) {
                    add(out, t.name(), byTopic.get(t.name()), t.partitionIndexes());
                }
            }
        }
        return CompletableFuture.completedFuture(new ListPartitionReassignmentsResponseData().setThrottleTimeMs(0)
                .setErrorCode(Errors.NONE).setErrorMessage(null).setTopics(out));
    }

    private void add(List<OngoingTopicReassignment> out, String topic, Map<Integer, Integer> moves,
                     List<Integer> only) {
        List<OngoingPartitionReassignment> partitions = new ArrayList<>();
        moves.forEach((partition, target) -> {
            if (only != null && !only.contains(partition)) {
                return;
            }
            PartitionLeader current = ctx.cluster().view().liveLeader(topic, partition)
                    .orElse(PartitionLeader.none(0));
            List<Integer> replicas = new ArrayList<>(List.of(target));
            List<Integer> removing = new ArrayList<>();
            if (current.hasLeader() && current.leader() != target) {
                replicas.add(current.leader());
                removing.add(current.leader());
            }
            partitions.add(new OngoingPartitionReassignment().setPartitionIndex(partition).setReplicas(replicas)
                    .setAddingReplicas(new ArrayList<>(List.of(target))).setRemovingReplicas(removing));
        });
        if (!partitions.isEmpty()) {
            out.add(new OngoingTopicReassignment().setName(topic).setPartitions(partitions));
        }
    }
}
