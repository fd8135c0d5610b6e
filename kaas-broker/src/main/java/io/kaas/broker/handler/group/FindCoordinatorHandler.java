package io.kaas.broker.handler.group;

import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import io.kaas.broker.BrokerContext;
import io.kaas.broker.BrokerEndpoint;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.api.cluster.PartitionLeader;
import io.kaas.api.cluster.RegisteredEndpoint;
import io.kaas.broker.cluster.ClusterView;
import io.kaas.broker.coordinator.CoordinatorTopic;
import io.kaas.wire.message.FindCoordinatorRequestData;
import io.kaas.wire.message.FindCoordinatorResponseData.Coordinator;
import io.kaas.wire.message.FindCoordinatorResponseData;
import io.kaas.wire.protocol.Errors;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * FindCoordinator v0-6, single key (v0-3) and batched (v4+). A group key lives on partition
 * {@code abs(key.hashCode()) % partitions} of {@code __consumer_offsets}, a transactional id on that of
 * {@code __transaction_state}; the coordinator is that partition's leader ({@link ClusterView}), answered with its
 * endpoint on the listener the request came in on. The topic is created on the first such request, as Kafka creates
 * it (COORDINATOR_NOT_AVAILABLE if that fails, logged); a partition without a leader yet, or a leader without that
 * listener, answers COORDINATOR_NOT_AVAILABLE. Share keys (v6) and unknown key types: INVALID_REQUEST.
 */
public final class FindCoordinatorHandler implements ApiHandler<FindCoordinatorRequestData, FindCoordinatorResponseData> {
    static final byte GROUP = 0;
    static final byte TRANSACTION = 1;

    private static final Logger LOG = LoggerFactory.getLogger(FindCoordinatorHandler.class);

    private final BrokerContext ctx;
    private final ClusterView cluster;
    private final CoordinatorTopic offsets;
    private final CoordinatorTopic transactionState;

    public FindCoordinatorHandler(BrokerContext ctx, ClusterView cluster, CoordinatorTopic offsets,
                                  CoordinatorTopic transactionState) {
        this.ctx = ctx;
        this.cluster = cluster;
        this.offsets = offsets;
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
        if (keyType != GROUP && keyType != TRANSACTION) {
            return c.setErrorCode(Errors.INVALID_REQUEST).setErrorMessage("Unsupported key type " + keyType);
        }
        CoordinatorTopic topic = keyType == GROUP ? offsets : transactionState;
        String what = keyType == GROUP ? "group" : "transactional id";
        try {
            topic.ensureCreated();
        } catch (IOException e) {
            LOG.atWarn().addKeyValue(keyType == GROUP ? "group" : "transactionalId", key).setCause(e)
                    .log("no coordinator for {} {}: {}", what, key, e.getMessage());
            return notAvailable(c);
        }
        int partition = topic.partitionFor(key == null ? "" : key);
        Optional<PartitionLeader> leader = cluster.leader(topic.name(), partition);
        if (leader.isEmpty() || !leader.get().hasLeader()) {
            LOG.atDebug().addKeyValue("partition", topic.name() + "-" + partition)
                    .log("no coordinator for {} {}: {}-{} has no leader", what, key, topic.name(), partition);
            return notAvailable(c);
        }
        int node = leader.get().leader();
        String listener = context.listenerName();
        if (node == ctx.nodeId()) {
            BrokerEndpoint endpoint = ctx.advertisedEndpoint(listener);
            return c.setErrorCode(Errors.NONE).setErrorMessage(null).setNodeId(node).setHost(endpoint.host())
                    .setPort(endpoint.port());
        }
        Optional<RegisteredEndpoint> endpoint = cluster.endpoint(node, listener);
        if (endpoint.isEmpty()) {
            LOG.atWarn().addKeyValue("partition", topic.name() + "-" + partition).addKeyValue("listener", listener)
                    .log("no coordinator for {} {}: broker {}, the leader of {}-{}, has no live endpoint on listener {}",
                            what, key, node, topic.name(), partition, listener);
            return notAvailable(c);
        }
        return c.setErrorCode(Errors.NONE).setErrorMessage(null).setNodeId(node).setHost(endpoint.get().host())
                .setPort(endpoint.get().port());
    }

    private static Coordinator notAvailable(Coordinator c) {
        return c.setErrorCode(Errors.COORDINATOR_NOT_AVAILABLE).setErrorMessage("The coordinator is not available.");
    }
}
