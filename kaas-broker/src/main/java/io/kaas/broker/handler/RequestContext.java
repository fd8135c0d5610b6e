package io.kaas.broker.handler;

import java.net.InetSocketAddress;

/**
 * Facts about one request that a handler may need besides its body.
 *
 * @param apiVersion    the request's version
 * @param correlationId the request's correlation id
 * @param clientId      the client id from the header, possibly null
 * @param clientAddress the peer's address
 * @param listenerName  the listener the request arrived on (e.g. {@code PLAINTEXT})
 */
public record RequestContext(short apiVersion, int correlationId, String clientId,
                             InetSocketAddress clientAddress, String listenerName) {
}
