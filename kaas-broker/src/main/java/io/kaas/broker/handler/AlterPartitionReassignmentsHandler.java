package io.kaas.broker.handler;

import io.kaas.api.cluster.ClusterStateException;
import io.kaas.api.cluster.PartitionLeader;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.broker.BrokerContext;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.topic.Topic;
import io.kaas.broker.topic.TopicManager;
import io.kaas.wire.message.AlterPartitionReassignmentsRequestData;
import io.kaas.wire.message.AlterPartitionReassignmentsRequestData.ReassignablePartition;
import io.kaas.wire.message.AlterPartitionReassignmentsRequestData.ReassignableTopic;
import io.kaas.wire.message.AlterPartitionReassignmentsResponseData;
import io.kaas.wire.message.AlterPartitionReassignmentsResponseData.ReassignablePartitionResponse;
import io.kaas.wire.message.AlterPartitionReassignmentsResponseData.ReassignableTopicResponse;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * AlterPartitionReassignments v0-1 ({@code kafka-reassign-partitions --execute}, Admin.alterPartitionReassignments):
 * moves a partition's single writer to another broker. The replica list must name exactly one live broker
 * (INVALID_REPLICA_ASSIGNMENT, with Kafka's messages for an empty list, a broker named twice or one not registered);
 * a move is written to the cluster store as a request the controller carries out (close on the old writer, the next
 * epoch, open on the new one) and then removes; null replicas cancel a pending move (NO_REASSIGNMENT_IN_PROGRESS if
 * none). An unknown topic or partition is UNKNOWN_TOPIC_OR_PARTITION. ALTER on the cluster is checked by the pipeline.
 */
public final class AlterPartitionReassignmentsHandler
        implements ApiHandler<AlterPartitionReassignmentsRequestData, AlterPartitionReassignmentsResponseData> {
    private static final Logger LOG = LoggerFactory.getLogger(AlterPartitionReassignmentsHandler.class);

    private final BrokerContext ctx;
    private final TopicManager topics;

    public AlterPartitionReassignmentsHandler(BrokerContext ctx, TopicManager topics) {
        this.ctx = ctx;
        this.topics = topics;
    }

    /** A refusal of one partition's request, with Kafka's code and message. */
    private record Refusal(short code, String message) {
    }

    @Override
    public CompletableFuture<AlterPartitionReassignmentsResponseData> handle(RequestContext context,
            AlterPartitionReassignmentsRequestData request) {
        Map<TopicPartitionRef, Integer> pending = ctx.clusterStore().reassignmentRequests();
        Map<TopicPartitionRef, Integer> writes = new HashMap<>();
        List<ReassignableTopicResponse> out = new ArrayList<>();
        List<ReassignablePartitionResponse> written = new ArrayList<>();
        for (ReassignableTopic t : request.topics()) {
            List<ReassignablePartitionResponse> partitions = new ArrayList<>();
            for (ReassignablePartition p : t.partitions()) {
                ReassignablePartitionResponse r = new ReassignablePartitionResponse()
                        .setPartitionIndex(p.partitionIndex()).setErrorCode(Errors.NONE).setErrorMessage(null);
                partitions.add(r);
                Refusal refusal = check(t.name(), p, pending, writes);
                if (refusal != null) {
                    r.setErrorCode(refusal.code()).setErrorMessage(refusal.message());
                    LOG.atInfo().addKeyValue("topic", t.name()).addKeyValue("partition", p.partitionIndex())
                            .addKeyValue("principal", context.principal())
                            .log("partition reassignment of {}-{} refused: {}", t.name(), p.partitionIndex(),
                                    refusal.message());
                } else {
                    written.add(r);
                }
            }
            out.add(new ReassignableTopicResponse().setName(t.name()).setPartitions(partitions));
        }
        if (!writes.isEmpty()) {
            try {
                ctx.clusterStore().alterReassignmentRequests(writes);
                LOG.atInfo().addKeyValue("moves", writes).addKeyValue("principal", context.principal())
                        .log("partition reassignments requested by {}: {} (-1: cancelled)", context.principal(), writes);
            } catch (ClusterStateException e) {
                LOG.atWarn().setCause(e).log("partition reassignments could not be stored");
                written.forEach(r -> r.setErrorCode(Errors.UNKNOWN_SERVER_ERROR).setErrorMessage(e.getMessage()));
            }
        }
        return CompletableFuture.completedFuture(new AlterPartitionReassignmentsResponseData().setThrottleTimeMs(0)
                .setErrorCode(Errors.NONE).setErrorMessage(null).setResponses(out));
    }

    /** Checks one partition's request and adds its write to {@code writes}; null when accepted. */
    private Refusal check(String topic, ReassignablePartition p, Map<TopicPartitionRef, Integer> pending,
                          Map<TopicPartitionRef, Integer> writes) {
        Optional<Topic> t = topics.topic(topic);
        if (t.isEmpty()) {
            return new Refusal(Errors.UNKNOWN_TOPIC_OR_PARTITION, "Unable to find a topic named " + topic + ".");
        }
        if (!t.get().hasPartition(p.partitionIndex())) {
            return new Refusal(Errors.UNKNOWN_TOPIC_OR_PARTITION,
                    "Unable to find partition " + topic + ":" + p.partitionIndex() + ".");
        }
        TopicPartitionRef ref = new TopicPartitionRef(topic, p.partitionIndex());
        if (p.replicas() == null) {
            if (!pending.containsKey(ref)) {
                return new Refusal(Errors.NO_REASSIGNMENT_IN_PROGRESS, "No partition reassignment is in progress.");
            }
            writes.put(ref, -1);
            return null;
        }
        Refusal invalid = invalidReplicas(p.replicas());
        if (invalid != null) {
            return invalid;
        }
        int target = p.replicas().get(0);
        Optional<PartitionLeader> leader = ctx.cluster().view().liveLeader(topic, p.partitionIndex());
        if (leader.isPresent() && leader.get().leader() == target && !pending.containsKey(ref)) {
            return null; // already there: nothing to do, as Kafka answers a reassignment to the current replicas
        }
        writes.put(ref, target);
        return null;
    }

    /** Kafka's checks of a manual assignment, and kaas's own: one replica, the partition's single writer. */
    private Refusal invalidReplicas(List<Integer> replicas) {
        if (replicas.isEmpty()) {
            return new Refusal(Errors.INVALID_REPLICA_ASSIGNMENT,
                    "The manual partition assignment includes an empty replica list.");
        }
        TreeSet<Integer> seen = new TreeSet<>();
        for (int id : new TreeSet<>(replicas)) {
            if (!ctx.cluster().view().liveBrokers().containsKey(id)) {
                return new Refusal(Errors.INVALID_REPLICA_ASSIGNMENT, "The manual partition assignment includes broker "
                        + id + ", but no such broker is registered.");
            }
        }
        for (int id : replicas) {
            if (!seen.add(id)) {
                return new Refusal(Errors.INVALID_REPLICA_ASSIGNMENT, "The manual partition assignment includes the "
                        + "broker " + id + " more than once.");
            }
        }
        if (replicas.size() != 1) {
            return new Refusal(Errors.INVALID_REPLICA_ASSIGNMENT, "The manual partition assignment includes "
                    + replicas.size() + " replicas, but a kaas partition has exactly one, its single writer on the "
                    + "shared volume: name one broker.");
        }
        return null;
    }
}
