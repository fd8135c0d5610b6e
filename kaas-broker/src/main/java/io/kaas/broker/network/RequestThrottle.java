package io.kaas.broker.network;

import io.kaas.broker.request.RequestContext;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.protocol.ApiMessage;

/**
 * The throttle time a completed request earns (client quotas, KIP-219). Called once per request on the thread
 * that completed it, before its response is encoded: it may raise the response's {@code throttle_time_ms}. The
 * connection then reads no further request for that time after the response is sent.
 */
@FunctionalInterface
public interface RequestThrottle {
    /** Nothing is throttled. */
    RequestThrottle NONE = (api, context, requestBytes, response, handlerNanos) -> 0;

    /**
     * @param requestBytes the request frame's size
     * @param response     the response, null when none is sent (a produce with acks=0)
     * @param handlerNanos the time the request's handler took on its request thread
     * @return the time to mute the connection for, in ms; 0 for none
     */
    long throttleMs(ApiMessageType api, RequestContext context, int requestBytes, ApiMessage response,
                    long handlerNanos);
}
