package io.kaas.broker.request;

import io.kaas.api.auth.AuthorizableRequestContext;
import io.kaas.broker.auth.AccessGate;
import io.kaas.broker.auth.RequestAccess;
import java.net.InetSocketAddress;

/**
 * Facts about one request that a handler may need besides its body.
 *
 * @param apiVersion    the request's version
 * @param correlationId the request's correlation id
 * @param clientId      the client id from the header, possibly null
 * @param clientAddress the peer's address
 * @param listenerName  the listener the request arrived on (e.g. {@code PLAINTEXT})
 * @param access        what the request may do, as its API's contract lets the handler ask; set by the
 *                      pipeline ({@link HandlerRegistry#handle})
 */
public record RequestContext(short apiVersion, int correlationId, String clientId,
                             InetSocketAddress clientAddress, String listenerName, RequestAccess access) {

    /** A request as the network layer decoded it, before the pipeline has scoped its access. */
    public RequestContext(short apiVersion, int correlationId, String clientId, InetSocketAddress clientAddress,
                          String listenerName) {
        this(apiVersion, correlationId, clientId, clientAddress, listenerName, null);
    }

    /**
     * What the request may do.
     *
     * @throws IllegalStateException if the request did not come through the pipeline
     */
    @Override
    public RequestAccess access() {
        if (access == null) {
            throw new IllegalStateException("request access is set by the pipeline (HandlerRegistry.handle)");
        }
        return access;
    }

    /** Who sent the request, as authorizers see it. */
    public AuthorizableRequestContext who() {
        return AccessGate.anonymous(clientAddress, listenerName, clientId);
    }

    RequestContext withAccess(RequestAccess scoped) {
        return new RequestContext(apiVersion, correlationId, clientId, clientAddress, listenerName, scoped);
    }
}
