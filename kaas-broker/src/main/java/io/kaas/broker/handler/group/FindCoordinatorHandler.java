package io.kaas.broker.handler.group;

import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import io.kaas.broker.BrokerContext;
import io.kaas.broker.BrokerEndpoint;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.transaction.TransactionStateTopic;
import io.kaas.wire.message.FindCoordinatorRequestData;
import io.kaas.wire.message.FindCoordinatorResponseData.Coordinator;
import io.kaas.wire.message.FindCoordinatorResponseData;
import io.kaas.wire.protocol.Errors;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * FindCoordinator v0-6, single key (v0-3) and batched (v4+). Group keys: this broker. Transaction keys: the broker
 * leading the key's partition of {@code __transaction_state}, this one; the topic is created on the first such
 * request, as Kafka creates it (COORDINATOR_NOT_AVAILABLE if that fails, logged). Share keys (v6) and unknown key
 * types: INVALID_REQUEST.
 */
public final class FindCoordinatorHandler implements ApiHandler<FindCoordinatorRequestData, FindCoordinatorResponseData> {
    static final byte GROUP = 0;
    static final byte TRANSACTION = 1;

    private static final Logger LOG = LoggerFactory.getLogger(FindCoordinatorHandler.class);

    private final BrokerContext ctx;
    private final TransactionStateTopic transactionState;

    public FindCoordinatorHandler(BrokerContext ctx, TransactionStateTopic transactionState) {
        this.ctx = ctx;
        this.transactionState = transactionState;
    }

    @Override
    public CompletableFuture<FindCoordinatorResponseData> handle(RequestContext context, FindCoordinatorRequestData request) {
        FindCoordinatorResponseData response = new FindCoordinatorResponseData();
        if (context.apiVersion() >= 4) {
            List<Coordinator> coordinators = new ArrayList<>();
            for (String key : request.coordinatorKeys()) {
                coordinators.add(lookup(context, key, request.keyType()));
            }
            return CompletableFuture.completedFuture(response.setCoordinators(coordinators));
        }
        Coordinator c = lookup(context, request.key(), request.keyType());
        response.setErrorCode(c.errorCode()).setNodeId(c.nodeId()).setHost(c.host()).setPort(c.port());
        if (context.apiVersion() >= 1) {
            response.setErrorMessage(c.errorMessage());
        }
        return CompletableFuture.completedFuture(response);
    }

    private Coordinator lookup(RequestContext context, String key, byte keyType) {
        Coordinator c = new Coordinator().setKey(key).setNodeId(-1).setHost("").setPort(-1);
        // As Kafka: DESCRIBE on the key's group or transactional id, else its authorization error and no node.
        if (keyType == GROUP && !context.access().allowed(Operation.DESCRIBE, ResourceType.GROUP, key)) {
            return c.setErrorCode(Errors.GROUP_AUTHORIZATION_FAILED).setErrorMessage("Group authorization failed.");
        }
        if (keyType == TRANSACTION && !context.access().allowed(Operation.DESCRIBE, ResourceType.TRANSACTIONAL_ID, key)) {
            return c.setErrorCode(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED)
                    .setErrorMessage("Transactional Id authorization failed.");
        }
        if (keyType == TRANSACTION) {
            try {
                transactionState.ensureCreated();
            } catch (IOException e) {
                LOG.atWarn().addKeyValue("transactionalId", key).setCause(e)
                        .log("no transaction coordinator for transactional id {}: {}", key, e.getMessage());
                return c.setErrorCode(Errors.COORDINATOR_NOT_AVAILABLE)
                        .setErrorMessage("The coordinator is not available.");
            }
        }
        if (keyType == GROUP || keyType == TRANSACTION) {
            BrokerEndpoint endpoint = ctx.advertisedEndpoint(context.listenerName());
            return c.setErrorCode(Errors.NONE).setErrorMessage(null).setNodeId(ctx.nodeId())
                    .setHost(endpoint.host()).setPort(endpoint.port());
        }
        return c.setErrorCode(Errors.INVALID_REQUEST).setErrorMessage("Unsupported key type " + keyType);
    }
}
