package io.kaas.broker.handler.txn;

import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.topic.TopicManager;
import io.kaas.broker.topic.TopicNames;
import io.kaas.coordinator.transaction.TransactionCoordinator;
import io.kaas.wire.message.AddPartitionsToTxnRequestData;
import io.kaas.wire.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTopic;
import io.kaas.wire.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTransaction;
import io.kaas.wire.message.AddPartitionsToTxnResponseData;
import io.kaas.wire.message.AddPartitionsToTxnResponseData.AddPartitionsToTxnPartitionResult;
import io.kaas.wire.message.AddPartitionsToTxnResponseData.AddPartitionsToTxnResult;
import io.kaas.wire.message.AddPartitionsToTxnResponseData.AddPartitionsToTxnTopicResult;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * AddPartitionsToTxn v0-5. v0-3 is the client's form (one transaction): WRITE on the transactional id and on each
 * topic (internal topics are never writable), then the coordinator adds the partitions durably. v4-5 is the
 * brokers' batched form (the contract requires CLUSTER_ACTION): several transactions, each either added or, with
 * {@code verify_only}, only checked to be in its ongoing transaction (KIP-890 part 1: TRANSACTION_ABORTABLE for a
 * partition that is not, as Kafka's coordinator answers). As Kafka, one refused
 * partition (TOPIC_AUTHORIZATION_FAILED, UNKNOWN_TOPIC_OR_PARTITION) fails its whole transaction, the others
 * answered OPERATION_NOT_ATTEMPTED; PRODUCER_FENCED is INVALID_PRODUCER_EPOCH below v2.
 */
public final class AddPartitionsToTxnHandler
        implements ApiHandler<AddPartitionsToTxnRequestData, AddPartitionsToTxnResponseData> {
    private final TopicManager topics;
    private final TransactionCoordinator coordinator;

    public AddPartitionsToTxnHandler(TopicManager topics, TransactionCoordinator coordinator) {
        this.topics = topics;
        this.coordinator = coordinator;
    }

    @Override
    public CompletableFuture<AddPartitionsToTxnResponseData> handle(RequestContext context,
                                                                    AddPartitionsToTxnRequestData request) {
        short version = context.apiVersion();
        if (version < 4) {
            AddPartitionsToTxnTransaction only = new AddPartitionsToTxnTransaction()
                    .setTransactionalId(request.v3AndBelowTransactionalId())
                    .setProducerId(request.v3AndBelowProducerId())
                    .setProducerEpoch(request.v3AndBelowProducerEpoch())
                    .setVerifyOnly(false)
                    .setTopics(request.v3AndBelowTopics());
            return one(context, only, version).thenApply(r -> new AddPartitionsToTxnResponseData().setThrottleTimeMs(0)
                    .setResultsByTopicV3AndBelow(r.topicResults()));
        }
        List<CompletableFuture<AddPartitionsToTxnResult>> results = new ArrayList<>();
        for (AddPartitionsToTxnTransaction t : request.transactions()) {
            results.add(one(context, t, version));
        }
        return CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).thenApply(v -> {
            List<AddPartitionsToTxnResult> out = new ArrayList<>();
            results.forEach(f -> out.add(f.join()));
            return new AddPartitionsToTxnResponseData().setThrottleTimeMs(0).setErrorCode(Errors.NONE)
                    .setResultsByTransaction(out);
        });
    }

    private CompletableFuture<AddPartitionsToTxnResult> one(RequestContext context, AddPartitionsToTxnTransaction t,
                                                            short version) {
        String id = t.transactionalId();
        List<TopicPartitionRef> asked = new ArrayList<>();
        for (AddPartitionsToTxnTopic topic : t.topics()) {
            for (int p : topic.partitions()) {
                if (p >= 0) {
                    asked.add(new TopicPartitionRef(topic.name(), p));
                }
            }
        }
        if (version < 4 && !context.access().allowed(Operation.WRITE, ResourceType.TRANSACTIONAL_ID, id)) {
            return done(id, t, Map.of(), Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
        }
        if (!TxnErrors.isValidId(id)) {
            return done(id, t, Map.of(), Errors.INVALID_REQUEST);
        }
        Set<String> writable = version < 4
                ? context.access().allowedTopics(Operation.WRITE, t.topics().stream().map(AddPartitionsToTxnTopic::name)
                        .filter(n -> !TopicNames.isInternal(n)).toList())
                : null;
        Map<Key, Short> refused = new LinkedHashMap<>();
        for (AddPartitionsToTxnTopic topic : t.topics()) {
            for (int p : topic.partitions()) {
                if (writable != null && !writable.contains(topic.name())) {
                    refused.put(new Key(topic.name(), p), Errors.TOPIC_AUTHORIZATION_FAILED);
                } else if (p < 0 || topics.topic(topic.name()).map(known -> p >= known.partitionCount()).orElse(true)) {
                    // as Kafka: the partition must exist in the cluster's metadata (its writer may be another broker)
                    refused.put(new Key(topic.name(), p), Errors.UNKNOWN_TOPIC_OR_PARTITION);
                }
            }
        }
        if (!refused.isEmpty()) {
            return done(id, t, refused, Errors.OPERATION_NOT_ATTEMPTED);
        }
        return coordinator.addPartitions(id, t.producerId(), t.producerEpoch(), asked, t.verifyOnly())
                .thenApply(errors -> {
                    Map<Key, Short> byKey = new LinkedHashMap<>();
                    errors.forEach((tp, code) -> byKey.put(new Key(tp.topic(), tp.partition()),
                            t.verifyOnly() ? TxnErrors.verified(code) : code));
                    return result(id, t, byKey, Errors.UNKNOWN_SERVER_ERROR, version);
                });
    }

    /** A partition as the request names it (the index may be negative, so not a TopicPartitionRef). */
    private record Key(String topic, int partition) {
    }

    private static CompletableFuture<AddPartitionsToTxnResult> done(String id, AddPartitionsToTxnTransaction t,
                                                                    Map<Key, Short> errors, short others) {
        return CompletableFuture.completedFuture(result(id, t, errors, others, Short.MAX_VALUE));
    }

    private static AddPartitionsToTxnResult result(String id, AddPartitionsToTxnTransaction t,
                                                   Map<Key, Short> errors, short others, short version) {
        List<AddPartitionsToTxnTopicResult> topicResults = new ArrayList<>();
        for (AddPartitionsToTxnTopic topic : t.topics()) {
            List<AddPartitionsToTxnPartitionResult> partitions = new ArrayList<>();
            for (int p : topic.partitions()) {
                short code = errors.getOrDefault(new Key(topic.name(), p), others);
                partitions.add(new AddPartitionsToTxnPartitionResult().setPartitionIndex(p)
                        .setPartitionErrorCode(TxnErrors.fenced(code, version, 2)));
            }
            topicResults.add(new AddPartitionsToTxnTopicResult().setName(topic.name()).setResultsByPartition(partitions));
        }
        return new AddPartitionsToTxnResult().setTransactionalId(id).setTopicResults(topicResults);
    }
}
