package io.kaas.broker.handler.txn;

import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.coordinator.transaction.TransactionCoordinator;
import io.kaas.coordinator.transaction.TransactionState;
import io.kaas.wire.message.ListTransactionsRequestData;
import io.kaas.wire.message.ListTransactionsResponseData;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * ListTransactions v0-2 ({@code kafka-transactions list}, {@code find-hanging}): the transactional ids matching
 * every filter given: states (names Kafka does not know are echoed in {@code unknown_state_filters} and match
 * nothing), producer ids, v1+ the duration (KIP-994: open longer than that many ms), v2+ a regular expression
 * the whole id must match (INVALID_REGULAR_EXPRESSION if it does not compile). Only ids the principal may
 * DESCRIBE are listed; Dead ids never are.
 */
public final class ListTransactionsHandler implements ApiHandler<ListTransactionsRequestData, ListTransactionsResponseData> {
    private final TransactionCoordinator coordinator;

    public ListTransactionsHandler(TransactionCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletableFuture<ListTransactionsResponseData> handle(RequestContext context, ListTransactionsRequestData request) {
        short version = context.apiVersion();
        ListTransactionsResponseData response = new ListTransactionsResponseData().setThrottleTimeMs(0);
        Pattern pattern = null;
        String regex = version >= 2 ? request.transactionalIdPattern() : null;
        if (regex != null && !regex.isEmpty()) {
            try {
                pattern = Pattern.compile(regex);
            } catch (PatternSyntaxException e) {
                return CompletableFuture.completedFuture(response.setErrorCode(Errors.INVALID_REGULAR_EXPRESSION));
            }
        }
        Set<TransactionState> states = EnumSet.noneOf(TransactionState.class);
        List<String> unknown = new ArrayList<>();
        for (String name : request.stateFilters()) {
            Optional<TransactionState> s = TransactionState.fromKafkaName(name);
            if (s.isPresent()) {
                states.add(s.get());
            } else {
                unknown.add(name);
            }
        }
        response.setUnknownStateFilters(unknown);
        List<ListTransactionsResponseData.TransactionState> out = new ArrayList<>();
        boolean nothingCanMatch = !request.stateFilters().isEmpty() && states.isEmpty();
        if (!nothingCanMatch) {
            long duration = version >= 1 ? request.durationFilter() : -1;
            for (TransactionCoordinator.Listing l : coordinator.list(states, new HashSet<>(request.producerIdFilters()),
                    duration)) {
                if (l.state() == TransactionState.DEAD || (pattern != null && !pattern.matcher(l.transactionalId()).matches())
                        || !context.access().allowed(Operation.DESCRIBE, ResourceType.TRANSACTIONAL_ID, l.transactionalId())) {
                    continue;
                }
                out.add(new ListTransactionsResponseData.TransactionState().setTransactionalId(l.transactionalId())
                        .setProducerId(l.producerId()).setTransactionState(l.state().kafkaName()));
            }
        }
        return CompletableFuture.completedFuture(response.setErrorCode(Errors.NONE).setTransactionStates(out));
    }
}
