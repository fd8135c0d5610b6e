package io.kaas.broker.request;

import io.kaas.api.auth.AuthorizableRequestContext;
import io.kaas.api.auth.KafkaPrincipal;
import io.kaas.broker.auth.ClientSession;
import io.kaas.broker.auth.RequestAccess;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * Facts about one request that a handler may need besides its body.
 *
 * @param apiVersion    the request's version
 * @param correlationId the request's correlation id
 * @param clientId      the client id from the header, possibly null
 * @param session       the connection's session: listener, peer address, principal
 * @param access        what the request may do, as its API's contract lets the handler ask; set by the
 *                      pipeline ({@link HandlerRegistry#handle})
 */
public record RequestContext(short apiVersion, int correlationId, String clientId, ClientSession session,
                             RequestAccess access) {

    /** A request as the network layer decoded it, before the pipeline has scoped its access. */
    public RequestContext(short apiVersion, int correlationId, String clientId, ClientSession session) {
        this(apiVersion, correlationId, clientId, session, null);
    }

    /** A request of an anonymous PLAINTEXT connection from {@code clientAddress} on {@code listenerName}. */
    public RequestContext(short apiVersion, int correlationId, String clientId, InetSocketAddress clientAddress,
                          String listenerName) {
        this(apiVersion, correlationId, clientId, ClientSession.plaintext(listenerName, clientAddress), null);
    }

    /** The peer's address, possibly null. */
    public InetSocketAddress clientAddress() {
        return session.clientAddress();
    }

    /** The listener the request arrived on (e.g. {@code PLAINTEXT}). */
    public String listenerName() {
        return session.listenerName();
    }

    /** The principal the request is authorized as. */
    public KafkaPrincipal principal() {
        return session.principal();
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
        InetSocketAddress peer = session.clientAddress();
        InetAddress address = peer == null || peer.getAddress() == null ? InetAddress.getLoopbackAddress() : peer.getAddress();
        return new AuthorizableRequestContext(session.principal(), address, session.listenerName(), clientId);
    }

    RequestContext withAccess(RequestAccess scoped) {
        return new RequestContext(apiVersion, correlationId, clientId, session, scoped);
    }
}
