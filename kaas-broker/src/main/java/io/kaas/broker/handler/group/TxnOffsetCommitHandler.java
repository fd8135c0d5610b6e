package io.kaas.broker.handler.group;

import io.kaas.api.auth.Operation;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.broker.handler.TransactionVerifier;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.topic.Topic;
import io.kaas.broker.topic.TopicManager;
import io.kaas.coordinator.group.OffsetManager;
import io.kaas.coordinator.transaction.TransactionCoordinator;
import io.kaas.wire.message.TxnOffsetCommitRequestData;
import io.kaas.wire.message.TxnOffsetCommitRequestData.TxnOffsetCommitRequestPartition;
import io.kaas.wire.message.TxnOffsetCommitRequestData.TxnOffsetCommitRequestTopic;
import io.kaas.wire.message.TxnOffsetCommitResponseData;
import io.kaas.wire.message.TxnOffsetCommitResponseData.TxnOffsetCommitResponsePartition;
import io.kaas.wire.message.TxnOffsetCommitResponseData.TxnOffsetCommitResponseTopic;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * TxnOffsetCommit v0-6 (KIP-98, KIP-447 member fields from v3): offsets committed inside a transaction, made
 * durable as pending in the transaction's state and visible to consumers only once it commits (OffsetFetch with
 * {@code require_stable} answers UNSTABLE_OFFSET_COMMIT meanwhile). v5+ (transactions V2) adds the group to the
 * transaction itself; below, AddOffsetsToTxn must have. The contract checks WRITE on the transactional id and
 * READ on the group; then, as Kafka, a topic the principal may not READ is TOPIC_AUTHORIZATION_FAILED, an unknown
 * topic or partition UNKNOWN_TOPIC_OR_PARTITION, and the rest goes to the transaction coordinator when it is this
 * broker, else to {@link RemoteTxnOffsetCommit} (Kafka's path: the offsets wait in {@code __consumer_offsets} for the
 * transaction's marker).
 *
 * <p>v6 (KIP-1319, Kafka 4.4) names topics by id (an id this cluster does not know: UNKNOWN_TOPIC_ID on its
 * partitions, before authorization, as OffsetCommit v10), carries the member epoch of a consumer-protocol member in
 * {@code GenerationIdOrMemberEpoch}, and answers GROUP_ID_NOT_FOUND (an unknown group named with a generation) and
 * STALE_MEMBER_EPOCH as such; below v6 both are ILLEGAL_GENERATION, as Kafka.
 */
public final class TxnOffsetCommitHandler implements ApiHandler<TxnOffsetCommitRequestData, TxnOffsetCommitResponseData> {
    private final TopicManager topics;
    private final TransactionCoordinator coordinator;
    private final RemoteTxnOffsetCommit remote;

    /**
     * @param verifier the transaction coordinators, this broker's or another's (Produce's verifier)
     * @param blocking runs the durable write of offsets whose transaction coordinator is another broker
     */
    public TxnOffsetCommitHandler(TopicManager topics, TransactionCoordinator coordinator, OffsetManager offsets,
                                  TransactionVerifier verifier, Executor blocking) {
        this.topics = topics;
        this.coordinator = coordinator;
        this.remote = new RemoteTxnOffsetCommit(offsets, verifier, blocking);
    }

    @Override
    public CompletableFuture<TxnOffsetCommitResponseData> handle(RequestContext context, TxnOffsetCommitRequestData request) {
        short version = context.apiVersion();
        boolean byId = version >= 6;
        if (byId) {
            for (TxnOffsetCommitRequestTopic t : request.topics()) {
                t.setName(topics.topic(t.topicId()).map(Topic::name).orElse(""));
            }
        }
        Set<String> readable = context.access().allowedTopics(Operation.READ,
                request.topics().stream().map(TxnOffsetCommitRequestTopic::name).filter(n -> !byId || !n.isEmpty())
                        .toList());
        List<OffsetManager.Commit> commits = new ArrayList<>();
        for (TxnOffsetCommitRequestTopic t : request.topics()) {
            Optional<Topic> topic = topics.topic(t.name());
            if (!readable.contains(t.name()) || topic.isEmpty()) {
                continue;
            }
            for (TxnOffsetCommitRequestPartition p : t.partitions()) {
                if (exists(topic.get(), p.partitionIndex())) {
                    commits.add(new OffsetManager.Commit(new TopicPartitionRef(t.name(), p.partitionIndex()),
                            p.committedOffset(), version >= 2 ? p.committedLeaderEpoch() : -1, p.committedMetadata()));
                }
            }
        }
        CompletableFuture<Map<TopicPartitionRef, Short>> committed;
        if (commits.isEmpty()) {
            committed = CompletableFuture.completedFuture(Map.of());
        } else if (request.transactionalId() == null || request.transactionalId().isEmpty()) {
            committed = CompletableFuture.completedFuture(everyPartition(commits, Errors.INVALID_REQUEST));
        } else if (coordinator.coordinatorError(request.transactionalId()) == Errors.NOT_COORDINATOR) {
            // the transaction's coordinator is another broker: the offsets wait in __consumer_offsets for its marker
            committed = remote.commit(request.transactionalId(), request.producerId(), request.producerEpoch(),
                    request.groupId(), version >= 3 ? request.memberId() : "",
                    version >= 3 ? request.generationIdOrMemberEpoch() : -1,
                    version >= 3 ? request.groupInstanceId() : null, commits, version >= 5);
        } else {
            committed = coordinator.commitOffsets(request.transactionalId(), request.producerId(),
                    request.producerEpoch(), request.groupId(), version >= 3 ? request.memberId() : "",
                    version >= 3 ? request.generationIdOrMemberEpoch() : -1,
                    version >= 3 ? request.groupInstanceId() : null,
                    commits, version >= 5);
        }
        return committed.thenApply(errors -> {
            List<TxnOffsetCommitResponseTopic> out = new ArrayList<>();
            for (TxnOffsetCommitRequestTopic t : request.topics()) {
                Optional<Topic> topic = topics.topic(t.name());
                List<TxnOffsetCommitResponsePartition> partitions = new ArrayList<>();
                for (TxnOffsetCommitRequestPartition p : t.partitions()) {
                    short code;
                    if (byId && t.name().isEmpty()) {
                        code = Errors.UNKNOWN_TOPIC_ID;
                    } else if (!readable.contains(t.name())) {
                        code = Errors.TOPIC_AUTHORIZATION_FAILED;
                    } else if (topic.isEmpty() || !exists(topic.get(), p.partitionIndex())) {
                        code = Errors.UNKNOWN_TOPIC_OR_PARTITION;
                    } else {
                        code = errors.getOrDefault(new TopicPartitionRef(t.name(), p.partitionIndex()),
                                Errors.UNKNOWN_SERVER_ERROR);
                        // As Kafka: 0.11-2.0 clients (v0-1) could crash on COORDINATOR_LOAD_IN_PROGRESS (KAFKA-7296).
                        if (version < 2 && code == Errors.COORDINATOR_LOAD_IN_PROGRESS) {
                            code = Errors.COORDINATOR_NOT_AVAILABLE;
                        }
                        // As Kafka: errors v6 introduced (KIP-1319) are ILLEGAL_GENERATION to older clients.
                        if (!byId && (code == Errors.GROUP_ID_NOT_FOUND || code == Errors.STALE_MEMBER_EPOCH)) {
                            code = Errors.ILLEGAL_GENERATION;
                        }
                    }
                    partitions.add(new TxnOffsetCommitResponsePartition().setPartitionIndex(p.partitionIndex())
                            .setErrorCode(code));
                }
                out.add(new TxnOffsetCommitResponseTopic().setName(t.name()).setTopicId(t.topicId())
                        .setPartitions(partitions));
            }
            return new TxnOffsetCommitResponseData().setThrottleTimeMs(0).setTopics(out);
        });
    }

    /** The partition exists in the cluster (led here or by another broker: offsets are the group's, not the log's). */
    private static boolean exists(Topic topic, int partition) {
        return partition >= 0 && partition < topic.partitionCount();
    }

    private static Map<TopicPartitionRef, Short> everyPartition(List<OffsetManager.Commit> commits, short code) {
        Map<TopicPartitionRef, Short> out = new HashMap<>();
        commits.forEach(c -> out.put(c.partition(), code));
        return out;
    }
}
