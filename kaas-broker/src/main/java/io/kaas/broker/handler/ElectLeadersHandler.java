package io.kaas.broker.handler;

import io.kaas.api.cluster.PartitionLeader;
import io.kaas.broker.BrokerContext;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.topic.Topic;
import io.kaas.broker.topic.TopicManager;
import io.kaas.wire.message.ElectLeadersRequestData;
import io.kaas.wire.message.ElectLeadersRequestData.TopicPartitions;
import io.kaas.wire.message.ElectLeadersResponseData;
import io.kaas.wire.message.ElectLeadersResponseData.PartitionResult;
import io.kaas.wire.message.ElectLeadersResponseData.ReplicaElectionResult;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * ElectLeaders v0-2 ({@code kafka-leader-election}): a kaas partition has one replica, its single writer, so its
 * preferred leader is its leader. A partition with a live writer answers ELECTION_NOT_NEEDED for both election types,
 * as Kafka answers a partition led by its preferred replica (PREFERRED) or led at all (UNCLEAN); a partition without
 * one is being given a writer by the controller at once, which is the election asked for: NONE. An unknown topic or
 * partition is UNKNOWN_TOPIC_OR_PARTITION with Kafka's messages. Null partitions ask for every partition, and, as
 * Kafka, the answer leaves out those that needed no election. ALTER on the cluster is checked by the pipeline.
 */
public final class ElectLeadersHandler implements ApiHandler<ElectLeadersRequestData, ElectLeadersResponseData> {
    private final BrokerContext ctx;
    private final TopicManager topics;

    public ElectLeadersHandler(BrokerContext ctx, TopicManager topics) {
        this.ctx = ctx;
        this.topics = topics;
    }

    @Override
    public CompletableFuture<ElectLeadersResponseData> handle(RequestContext context, ElectLeadersRequestData request) {
        List<ReplicaElectionResult> out = new ArrayList<>();
        if (request.topicPartitions() == null) {
            List<Topic> all = new ArrayList<>(topics.topics());
            all.sort(Comparator.comparing(Topic::name));
            for (Topic t : all) {
                List<PartitionResult> results = new ArrayList<>();
                for (int p = 0; p < t.partitionCount(); p++) {
                    PartitionResult r = elect(t.name(), p);
                    if (r.errorCode() != Errors.ELECTION_NOT_NEEDED) {
                        results.add(r);
                    }
                }
                if (!results.isEmpty()) {
                    out.add(new ReplicaElectionResult().setTopic(t.name()).setPartitionResult(results));
                }
            }
        } else {
            for (TopicPartitions t : request.topicPartitions()) {
                List<PartitionResult> results = new ArrayList<>();
                for (int p : t.partitions()) {
                    results.add(elect(t.topic(), p));
                }
                out.add(new ReplicaElectionResult().setTopic(t.topic()).setPartitionResult(results));
            }
        }
        return CompletableFuture.completedFuture(new ElectLeadersResponseData().setThrottleTimeMs(0)
                .setErrorCode(Errors.NONE).setReplicaElectionResults(out));
    }

    private PartitionResult elect(String topic, int partition) {
        PartitionResult r = new PartitionResult().setPartitionId(partition).setErrorCode(Errors.NONE).setErrorMessage(null);
        Optional<Topic> t = topics.topic(topic);
        if (t.isEmpty()) {
            return r.setErrorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION).setErrorMessage("No such topic as " + topic);
        }
        if (!t.get().hasPartition(partition)) {
            return r.setErrorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION)
                    .setErrorMessage("No such partition as " + topic + "-" + partition);
        }
        Optional<PartitionLeader> leader = ctx.cluster().view().liveLeader(topic, partition);
        if (leader.isPresent() && leader.get().hasLeader()) {
            return r.setErrorCode(Errors.ELECTION_NOT_NEEDED)
                    .setErrorMessage("Leader election not needed for topic partition.");
        }
        return r;
    }
}
