package io.kaas.api.auth;

import java.net.InetAddress;
import java.util.Objects;

/**
 * The facts about a request an authorizer may decide on.
 *
 * @param principal     the authenticated principal; {@link KafkaPrincipal#ANONYMOUS} on a PLAINTEXT listener
 * @param clientAddress the client's address
 * @param listenerName  the listener the request arrived on, e.g. {@code PLAINTEXT}
 * @param clientId      the client id from the request header, possibly null
 */
public record AuthorizableRequestContext(KafkaPrincipal principal, InetAddress clientAddress, String listenerName,
                                         String clientId) {
    public AuthorizableRequestContext {
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(clientAddress, "clientAddress");
        Objects.requireNonNull(listenerName, "listenerName");
    }
}
