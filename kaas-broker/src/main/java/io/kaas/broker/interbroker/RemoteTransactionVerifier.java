package io.kaas.broker.interbroker;

import io.kaas.api.cluster.PartitionLeader;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.broker.cluster.ClusterView;
import io.kaas.broker.handler.TransactionVerifier;
import io.kaas.broker.interbroker.InterBrokerException.Reason;
import io.kaas.wire.message.AddPartitionsToTxnRequestData;
import io.kaas.wire.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTopic;
import io.kaas.wire.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTransaction;
import io.kaas.wire.message.AddPartitionsToTxnResponseData;
import io.kaas.wire.message.AddPartitionsToTxnResponseData.AddPartitionsToTxnPartitionResult;
import io.kaas.wire.message.AddPartitionsToTxnResponseData.AddPartitionsToTxnResult;
import io.kaas.wire.message.AddPartitionsToTxnResponseData.AddPartitionsToTxnTopicResult;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.ToIntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Produce's transaction verification (KIP-890) when the producer's transaction coordinator may be another broker:
 * the coordinator is the writer of the {@code __transaction_state} partition the transactional id hashes to; this
 * broker's own coordinator answers when that is this broker, else the coordinator broker is asked with the brokers'
 * AddPartitionsToTxn (v4+, one transaction, {@code verify_only} as Produce asks) over the inter-broker listener, as
 * Kafka's AddPartitionsToTxnManager does, with Kafka's answers on failure: COORDINATOR_NOT_AVAILABLE while the
 * partition has no writer (or the writer no endpoint), NETWORK_EXCEPTION when the request got no answer (connection
 * failure, {@code request.timeout.ms}), SASL_AUTHENTICATION_FAILED when the connection could not authenticate,
 * INVALID_TXN_STATE for a CLUSTER_AUTHORIZATION_FAILED answer (the client must not see that one), the top-level
 * error for every partition otherwise, and no verification at all (every partition NONE, as Kafka) when the
 * coordinator supports no v4. Thread-safe.
 */
public final class RemoteTransactionVerifier implements TransactionVerifier {
    private static final Logger LOG = LoggerFactory.getLogger(RemoteTransactionVerifier.class);
    static final String TRANSACTION_STATE_TOPIC = "__transaction_state";
    private static final short BROKER_VERSION = 4;

    private final TransactionVerifier local;
    private final ToIntFunction<String> partitionFor;
    private final ClusterView view;
    private final BrokerClient client;

    /**
     * @param local        this broker's coordinator
     * @param partitionFor the {@code __transaction_state} partition of a transactional id (Kafka's
     *                     {@code abs(hash) % partitions})
     */
    public RemoteTransactionVerifier(TransactionVerifier local, ToIntFunction<String> partitionFor, ClusterView view,
                                     BrokerClient client) {
        this.local = local;
        this.partitionFor = partitionFor;
        this.view = view;
        this.client = client;
    }

    @Override
    public CompletableFuture<Map<TopicPartitionRef, Short>> addPartitions(String transactionalId, long producerId,
                                                                         short producerEpoch,
                                                                         Collection<TopicPartitionRef> partitions,
                                                                         boolean verifyOnly) {
        Optional<PartitionLeader> coordinator = coordinator(transactionalId);
        if (coordinator.isEmpty() || !coordinator.get().hasLeader()) {
            return CompletableFuture.completedFuture(all(partitions, Errors.COORDINATOR_NOT_AVAILABLE));
        }
        int node = coordinator.get().leader();
        if (node == view.localNodeId()) {
            return local.addPartitions(transactionalId, producerId, producerEpoch, partitions, verifyOnly);
        }
        Map<String, List<Integer>> byTopic = new LinkedHashMap<>();
        partitions.forEach(tp -> byTopic.computeIfAbsent(tp.topic(), k -> new ArrayList<>()).add(tp.partition()));
        List<AddPartitionsToTxnTopic> topics = new ArrayList<>();
        byTopic.forEach((t, ps) -> topics.add(new AddPartitionsToTxnTopic().setName(t).setPartitions(ps)));
        AddPartitionsToTxnRequestData request = new AddPartitionsToTxnRequestData().setTransactions(List.of(
            new AddPartitionsToTxnTransaction().setTransactionalId(transactionalId).setProducerId(producerId)
                .setProducerEpoch(producerEpoch).setVerifyOnly(verifyOnly).setTopics(topics)));
        return client.send(node, request, BROKER_VERSION).handle((body, error) -> error != null
            ? failed(transactionalId, node, partitions, error)
            : answered(transactionalId, node, partitions, (AddPartitionsToTxnResponseData) body));
    }

    @Override
    public CompletableFuture<Void> completion(String transactionalId) {
        Optional<PartitionLeader> coordinator = coordinator(transactionalId);
        return coordinator.isPresent() && coordinator.get().leader() == view.localNodeId()
            ? local.completion(transactionalId) : CompletableFuture.completedFuture(null);
    }

    private Optional<PartitionLeader> coordinator(String transactionalId) {
        return view.leader(TRANSACTION_STATE_TOPIC, partitionFor.applyAsInt(transactionalId));
    }

    private static Map<TopicPartitionRef, Short> failed(String transactionalId, int node,
                                                        Collection<TopicPartitionRef> partitions, Throwable error) {
        InterBrokerException ib = InterBrokerException.find(error);
        Reason reason = ib != null ? ib.reason() : Reason.DISCONNECTED;
        String why = ib != null ? ib.getMessage() : String.valueOf(error);
        if (reason == Reason.UNSUPPORTED_VERSION) {
            LOG.atWarn().addKeyValue("nodeId", node).addKeyValue("transactionalId", transactionalId)
                .log("AddPartitionsToTxn to transaction coordinator {} failed with an unsupported version ({}); this "
                    + "suggests verification is not supported, continuing without it", node, why);
            return all(partitions, Errors.NONE);
        }
        short code = switch (reason) {
            case NO_ENDPOINT -> Errors.COORDINATOR_NOT_AVAILABLE;
            case AUTHENTICATION_FAILED -> Errors.SASL_AUTHENTICATION_FAILED;
            default -> Errors.NETWORK_EXCEPTION;
        };
        LOG.atWarn().addKeyValue("nodeId", node).addKeyValue("transactionalId", transactionalId)
            .addKeyValue("errorCode", code)
            .log("Could not verify transactional id {} with its coordinator, broker {}: {} (error code {} for {})",
                transactionalId, node, why, code, partitions);
        return all(partitions, code);
    }

    private static Map<TopicPartitionRef, Short> answered(String transactionalId, int node,
                                                          Collection<TopicPartitionRef> partitions,
                                                          AddPartitionsToTxnResponseData response) {
        if (response.errorCode() != Errors.NONE) {
            LOG.atError().addKeyValue("nodeId", node).addKeyValue("transactionalId", transactionalId)
                .log("AddPartitionsToTxn for transactional id {} to broker {} returned error {}", transactionalId, node,
                    response.errorCode());
            return all(partitions, response.errorCode() == Errors.CLUSTER_AUTHORIZATION_FAILED
                ? Errors.INVALID_TXN_STATE : response.errorCode());
        }
        Map<TopicPartitionRef, Short> out = all(partitions, Errors.NONE);
        for (AddPartitionsToTxnResult t : response.resultsByTransaction()) {
            if (!transactionalId.equals(t.transactionalId())) {
                continue;
            }
            for (AddPartitionsToTxnTopicResult topic : t.topicResults()) {
                for (AddPartitionsToTxnPartitionResult p : topic.resultsByPartition()) {
                    TopicPartitionRef tp = new TopicPartitionRef(topic.name(), p.partitionIndex());
                    if (out.containsKey(tp)) {
                        out.put(tp, p.partitionErrorCode());
                    }
                }
            }
        }
        return out;
    }

    private static Map<TopicPartitionRef, Short> all(Collection<TopicPartitionRef> partitions, short code) {
        Map<TopicPartitionRef, Short> out = new HashMap<>();
        partitions.forEach(tp -> out.put(tp, code));
        return out;
    }
}
