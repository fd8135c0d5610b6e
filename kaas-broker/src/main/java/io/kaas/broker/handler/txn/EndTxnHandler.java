package io.kaas.broker.handler.txn;

import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.coordinator.transaction.TransactionCoordinator;
import io.kaas.wire.message.EndTxnRequestData;
import io.kaas.wire.message.EndTxnResponseData;
import io.kaas.wire.protocol.Errors;
import java.util.concurrent.CompletableFuture;

/**
 * EndTxn v0-5: commit or abort. Answered once the PrepareCommit/PrepareAbort state is durable; the markers and the
 * Complete state follow. v5+ is transactions V2 (KIP-890 part 2): the epoch is bumped on every end and the answer
 * carries the producer id and epoch to continue with. The contract checks WRITE on the transactional id;
 * PRODUCER_FENCED is INVALID_PRODUCER_EPOCH below v2, as Kafka.
 */
public final class EndTxnHandler implements ApiHandler<EndTxnRequestData, EndTxnResponseData> {
    private final TransactionCoordinator coordinator;

    public EndTxnHandler(TransactionCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletableFuture<EndTxnResponseData> handle(RequestContext context, EndTxnRequestData request) {
        short version = context.apiVersion();
        if (!TxnErrors.isValidId(request.transactionalId())) {
            return CompletableFuture.completedFuture(new EndTxnResponseData().setErrorCode(Errors.INVALID_REQUEST)
                    .setProducerId(-1).setProducerEpoch((short) -1));
        }
        return coordinator.endTransaction(request.transactionalId(), request.producerId(), request.producerEpoch(),
                        request.committed(), version >= 5)
                .thenApply(r -> new EndTxnResponseData().setThrottleTimeMs(0)
                        .setErrorCode(TxnErrors.fenced(r.errorCode(), version, 2))
                        .setProducerId(r.producerId()).setProducerEpoch(r.producerEpoch()));
    }
}
