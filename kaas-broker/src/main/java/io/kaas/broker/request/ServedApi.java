package io.kaas.broker.request;

import io.kaas.wire.protocol.ApiMessage;
import java.util.Objects;

/**
 * An API's contract and the handler that serves it; the types tie the handler to its contract's
 * request and response classes.
 */
public record ServedApi<Q extends ApiMessage, S extends ApiMessage>(ApiSpec<Q, S> spec, ApiHandler<Q, S> handler) {

    public ServedApi {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(handler, "handler");
    }

    public static <Q extends ApiMessage, S extends ApiMessage> ServedApi<Q, S> of(ApiSpec<Q, S> spec,
                                                                                ApiHandler<Q, S> handler) {
        return new ServedApi<>(spec, handler);
    }
}
