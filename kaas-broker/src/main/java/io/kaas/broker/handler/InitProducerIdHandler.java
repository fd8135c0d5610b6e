package io.kaas.broker.handler;

import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import io.kaas.api.cluster.ClusterStateStore;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.wire.message.InitProducerIdRequestData;
import io.kaas.wire.message.InitProducerIdResponseData;
import io.kaas.wire.protocol.Errors;
import java.util.concurrent.CompletableFuture;

/**
 * InitProducerId v0-5 for idempotent producers: a fresh producer id with epoch 0, from blocks reserved
 * in the cluster store. Transactions are not served yet (FindCoordinator is not advertised): a
 * transactional id is answered with NOT_COORDINATOR. Without one, as in Kafka, the producer needs
 * IDEMPOTENT_WRITE on the cluster or WRITE on at least one topic (CLUSTER_AUTHORIZATION_FAILED otherwise).
 */
public final class InitProducerIdHandler implements ApiHandler<InitProducerIdRequestData, InitProducerIdResponseData> {
    static final int BLOCK_SIZE = 1000;

    private final ClusterStateStore store;
    private long next;
    private long end;

    public InitProducerIdHandler(ClusterStateStore store) {
        this.store = store;
    }

    @Override
    public CompletableFuture<InitProducerIdResponseData> handle(RequestContext context, InitProducerIdRequestData request) {
        InitProducerIdResponseData response = new InitProducerIdResponseData().setThrottleTimeMs(0)
                .setProducerId(-1).setProducerEpoch((short) -1);
        if (request.transactionalId() != null) {
            return CompletableFuture.completedFuture(response.setErrorCode(Errors.NOT_COORDINATOR));
        }
        if (!context.access().allowedOnCluster(Operation.IDEMPOTENT_WRITE)
                && !context.access().allowedOnAny(Operation.WRITE, ResourceType.TOPIC)) {
            return CompletableFuture.completedFuture(response.setErrorCode(Errors.CLUSTER_AUTHORIZATION_FAILED));
        }
        boolean noId = request.producerId() == -1;
        boolean noEpoch = request.producerEpoch() == -1;
        if (noId != noEpoch) {
            return CompletableFuture.completedFuture(response.setErrorCode(Errors.INVALID_REQUEST));
        }
        return CompletableFuture.completedFuture(response.setErrorCode(Errors.NONE)
                .setProducerId(nextProducerId()).setProducerEpoch((short) 0));
    }

    /** Thread-safe; reserves a new block from the cluster store when the current one is used up. */
    synchronized long nextProducerId() {
        if (next >= end) {
            next = store.allocateProducerIdBlock(BLOCK_SIZE);
            end = next + BLOCK_SIZE;
        }
        return next++;
    }
}
