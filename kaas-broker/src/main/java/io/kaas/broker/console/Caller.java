package io.kaas.broker.console;

import io.kaas.api.auth.KafkaPrincipal;
import java.net.InetSocketAddress;

/**
 * Who a console request comes from: the principal it is authorized as (the authenticated console user, or
 * {@code User:ANONYMOUS} without an authorizer) and the HTTP client's address.
 */
record Caller(KafkaPrincipal principal, InetSocketAddress remote) {

    @Override
    public String toString() {
        return principal + "@" + (remote == null || remote.getAddress() == null ? "?" : remote.getAddress().getHostAddress());
    }
}
