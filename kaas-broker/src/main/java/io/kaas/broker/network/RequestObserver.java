package io.kaas.broker.network;

import io.kaas.broker.request.RequestContext;
import io.kaas.wire.message.ApiMessageType;

/**
 * Told of every request a handler answered (or failed), once, from the thread that completed it: request metrics
 * hang here. Must not block and must not look anything up by name per call.
 */
public interface RequestObserver {

    RequestObserver NONE = (api, context, requestBytes, startNanos, endNanos) -> { };

    /**
     * @param api          the request's API
     * @param context      its header fields and the connection's session (client id, principal, listener)
     * @param requestBytes the request frame's size
     * @param startNanos   {@link System#nanoTime()} when the frame was decoded and handed to its handler
     * @param endNanos     {@link System#nanoTime()} when the handler's answer completed
     */
    void completed(ApiMessageType api, RequestContext context, int requestBytes, long startNanos, long endNanos);
}
