package io.kaas.broker.handler;

import io.kaas.broker.BrokerContext;
import io.kaas.broker.cluster.StoreClusterView;
import io.kaas.broker.auth.AuthorizedOperations;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.wire.message.DescribeClusterRequestData;
import io.kaas.wire.message.DescribeClusterResponseData.DescribeClusterBroker;
import io.kaas.wire.message.DescribeClusterResponseData;
import io.kaas.wire.protocol.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** DescribeCluster v0-2: every live broker with its endpoint on the client's listener, and the controller. */
public final class DescribeClusterHandler implements ApiHandler<DescribeClusterRequestData, DescribeClusterResponseData> {
    private static final byte BROKER_ENDPOINT = 1;

    private final BrokerContext ctx;

    public DescribeClusterHandler(BrokerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public CompletableFuture<DescribeClusterResponseData> handle(RequestContext context, DescribeClusterRequestData request) {
        short version = context.apiVersion();
        DescribeClusterResponseData response = new DescribeClusterResponseData().setThrottleTimeMs(0)
                .setClusterId(ctx.clusterId()).setControllerId(ctx.cluster().view().controllerId().orElse(-1));
        if (version >= 1 && request.endpointType() != BROKER_ENDPOINT) {
            return CompletableFuture.completedFuture(response.setErrorCode(Errors.MISMATCHED_ENDPOINT_TYPE)
                    .setErrorMessage("The request was sent to an endpoint of type BROKER, but we wanted an endpoint of type "
                            + (request.endpointType() == 2 ? "CONTROLLER" : "UNKNOWN"))
                    .setBrokers(new ArrayList<>()));
        }
        String listener = context.listenerName() != null ? context.listenerName()
                : ctx.advertisedEndpoint().listenerName();
        StoreClusterView view = ctx.cluster().view();
        List<DescribeClusterBroker> brokers = new ArrayList<>();
        view.endpoints(listener).forEach((id, e) -> brokers.add(new DescribeClusterBroker().setBrokerId(id)
                .setHost(e.host()).setPort(e.port()).setRack(view.rack(id).orElse(null))));
        response.setErrorCode(Errors.NONE).setErrorMessage(null)
                .setBrokers(brokers)
                .setClusterAuthorizedOperations(request.includeClusterAuthorizedOperations()
                        ? context.access().clusterAuthorizedOperations() : AuthorizedOperations.OMITTED);
        return CompletableFuture.completedFuture(response);
    }
}
