package io.kaas.broker.handler.txn;

import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.coordinator.transaction.TransactionCoordinator;
import io.kaas.wire.message.DescribeTransactionsRequestData;
import io.kaas.wire.message.DescribeTransactionsResponseData;
import io.kaas.wire.message.DescribeTransactionsResponseData.TopicData;
import io.kaas.wire.message.DescribeTransactionsResponseData.TransactionState;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * DescribeTransactions v0 (KIP-664, {@code kafka-transactions describe}): per transactional id its state, producer
 * id and epoch, timeout, start time and partitions. As Kafka: TRANSACTIONAL_ID_AUTHORIZATION_FAILED without
 * DESCRIBE on the id, TRANSACTIONAL_ID_NOT_FOUND for an unknown (or empty) id, and only the topics the principal
 * may DESCRIBE are listed.
 */
public final class DescribeTransactionsHandler
        implements ApiHandler<DescribeTransactionsRequestData, DescribeTransactionsResponseData> {
    private final TransactionCoordinator coordinator;

    public DescribeTransactionsHandler(TransactionCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletableFuture<DescribeTransactionsResponseData> handle(RequestContext context,
                                                                      DescribeTransactionsRequestData request) {
        List<TransactionState> states = new ArrayList<>();
        for (String id : request.transactionalIds()) {
            TransactionState state = new TransactionState().setTransactionalId(id);
            if (!context.access().allowed(Operation.DESCRIBE, ResourceType.TRANSACTIONAL_ID, id)) {
                states.add(state.setErrorCode(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED));
                continue;
            }
            short notHere = TxnErrors.isValidId(id) ? coordinator.coordinatorError(id) : Errors.NONE;
            if (notHere != Errors.NONE) {
                states.add(state.setErrorCode(notHere)); // NOT_COORDINATOR: the client asks the id's coordinator
                continue;
            }
            Optional<TransactionCoordinator.Description> found = TxnErrors.isValidId(id) ? coordinator.describe(id)
                    : Optional.empty();
            if (found.isEmpty()) {
                states.add(state.setErrorCode(Errors.TRANSACTIONAL_ID_NOT_FOUND));
                continue;
            }
            TransactionCoordinator.Description d = found.get();
            Map<String, List<Integer>> byTopic = new TreeMap<>();
            for (TopicPartitionRef tp : d.partitions()) {
                byTopic.computeIfAbsent(tp.topic(), t -> new ArrayList<>()).add(tp.partition());
            }
            List<TopicData> topics = new ArrayList<>();
            byTopic.forEach((topic, partitions) -> {
                if (context.access().allowedOnTopic(Operation.DESCRIBE, topic)) {
                    partitions.sort(null);
                    topics.add(new TopicData().setTopic(topic).setPartitions(partitions));
                }
            });
            states.add(state.setErrorCode(Errors.NONE).setTransactionState(d.state().kafkaName())
                    .setTransactionTimeoutMs(d.timeoutMs()).setTransactionStartTimeMs(d.startTimeMs())
                    .setProducerId(d.producerId()).setProducerEpoch(d.producerEpoch()).setTopics(topics));
        }
        return CompletableFuture.completedFuture(new DescribeTransactionsResponseData().setThrottleTimeMs(0)
                .setTransactionStates(states));
    }
}
