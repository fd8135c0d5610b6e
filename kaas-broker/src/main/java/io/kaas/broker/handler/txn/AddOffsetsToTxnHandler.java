package io.kaas.broker.handler.txn;

import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.coordinator.transaction.TransactionCoordinator;
import io.kaas.wire.message.AddOffsetsToTxnRequestData;
import io.kaas.wire.message.AddOffsetsToTxnResponseData;
import io.kaas.wire.protocol.Errors;
import java.util.concurrent.CompletableFuture;

/**
 * AddOffsetsToTxn v0-4 (transactions V1; V2 clients let TxnOffsetCommit add the group): adds the group's offsets
 * to the transaction, durably. The contract checks WRITE on the transactional id, then READ on the group.
 * PRODUCER_FENCED is INVALID_PRODUCER_EPOCH below v2, as Kafka.
 */
public final class AddOffsetsToTxnHandler implements ApiHandler<AddOffsetsToTxnRequestData, AddOffsetsToTxnResponseData> {
    private final TransactionCoordinator coordinator;

    public AddOffsetsToTxnHandler(TransactionCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletableFuture<AddOffsetsToTxnResponseData> handle(RequestContext context, AddOffsetsToTxnRequestData request) {
        if (!TxnErrors.isValidId(request.transactionalId())) {
            return CompletableFuture.completedFuture(new AddOffsetsToTxnResponseData().setErrorCode(Errors.INVALID_REQUEST));
        }
        return coordinator.addOffsets(request.transactionalId(), request.producerId(), request.producerEpoch(),
                        request.groupId())
                .thenApply(code -> new AddOffsetsToTxnResponseData().setThrottleTimeMs(0)
                        .setErrorCode(TxnErrors.fenced(code, context.apiVersion(), 2)));
    }
}
