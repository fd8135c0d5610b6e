package io.kaas.broker.handler;

import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.coordinator.transaction.ProducerIds;
import io.kaas.coordinator.transaction.TransactionCoordinator;
import io.kaas.wire.message.InitProducerIdRequestData;
import io.kaas.wire.message.InitProducerIdResponseData;
import io.kaas.wire.protocol.Errors;
import java.util.concurrent.CompletableFuture;

/**
 * InitProducerId v0-5 (v6, two-phase commit, is unstable). Without a transactional id (an idempotent producer):
 * a fresh producer id with epoch 0 from {@link ProducerIds}; as in Kafka, the producer needs IDEMPOTENT_WRITE on
 * the cluster or WRITE on at least one topic (CLUSTER_AUTHORIZATION_FAILED otherwise). With one (the contract
 * checks WRITE on it): the transaction coordinator's answer (a new id, an epoch bump fencing older instances,
 * KIP-360 re-initialisation with the current id and epoch, CONCURRENT_TRANSACTIONS while the previous
 * transaction completes, INVALID_TRANSACTION_TIMEOUT above {@code transaction.max.timeout.ms}); an empty id is
 * INVALID_REQUEST, and PRODUCER_FENCED is INVALID_PRODUCER_EPOCH below v4, as Kafka answers older clients. A
 * producer id given without its epoch, or the reverse, is INVALID_REQUEST.
 */
public final class InitProducerIdHandler implements ApiHandler<InitProducerIdRequestData, InitProducerIdResponseData> {
    private final ProducerIds ids;
    private final TransactionCoordinator transactions;

    public InitProducerIdHandler(ProducerIds ids, TransactionCoordinator transactions) {
        this.ids = ids;
        this.transactions = transactions;
    }

    @Override
    public CompletableFuture<InitProducerIdResponseData> handle(RequestContext context, InitProducerIdRequestData request) {
        InitProducerIdResponseData response = new InitProducerIdResponseData().setThrottleTimeMs(0)
                .setProducerId(-1).setProducerEpoch((short) -1);
        String transactionalId = request.transactionalId();
        if (transactionalId == null && !context.access().allowedOnCluster(Operation.IDEMPOTENT_WRITE)
                && !context.access().allowedOnAny(Operation.WRITE, ResourceType.TOPIC)) {
            return CompletableFuture.completedFuture(response.setErrorCode(Errors.CLUSTER_AUTHORIZATION_FAILED));
        }
        boolean noId = request.producerId() == -1;
        boolean noEpoch = request.producerEpoch() == -1;
        if (noId != noEpoch) {
            return CompletableFuture.completedFuture(response.setErrorCode(Errors.INVALID_REQUEST));
        }
        if (transactionalId == null) {
            return CompletableFuture.completedFuture(response.setErrorCode(Errors.NONE)
                    .setProducerId(ids.next()).setProducerEpoch((short) 0));
        }
        if (transactionalId.isEmpty()) {
            return CompletableFuture.completedFuture(response.setErrorCode(Errors.INVALID_REQUEST));
        }
        short version = context.apiVersion();
        return transactions.initProducerId(transactionalId, request.transactionTimeoutMs(), request.producerId(),
                        request.producerEpoch(), false, version >= 6 && request.keepPreparedTxn())
                .thenApply(r -> response.setErrorCode(r.errorCode() == Errors.PRODUCER_FENCED && version < 4
                                ? Errors.INVALID_PRODUCER_EPOCH : r.errorCode())
                        .setProducerId(r.producerId()).setProducerEpoch(r.producerEpoch()));
    }
}
