package io.kaas.broker.handler;

import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.protocol.ApiMessage;
import java.util.concurrent.CompletableFuture;

/**
 * Serves one Kafka API. One class per API; all are registered in {@link HandlerRegistry}, the one
 * place ApiVersions is computed from, so nothing is advertised without a handler.
 *
 * <p>{@link #handle} runs on a request-handler thread (never a Netty event loop) and may block on
 * storage or cluster-state I/O; it returns a future so that waits (fsync, long-poll) park without a
 * thread. Errors a client should see are answered inside the response with Kafka's error codes; an
 * exception thrown or a future failed here is answered by the network layer with the API's
 * top-level error response where one exists, otherwise the connection is closed.
 *
 * @param <Q> the generated request class
 * @param <S> the generated response class
 */
public interface ApiHandler<Q extends ApiMessage, S extends ApiMessage> {

    /** The API served. */
    ApiMessageType api();

    /** Lowest request version advertised in ApiVersions (Kafka 4.x floor, KIP-896). */
    short minVersion();

    /** Highest request version served; never above the schema's stable maximum. */
    short maxVersion();

    /**
     * The response to {@code request}, or a future completed with {@code null} when no response must
     * be sent (Produce with {@code acks=0}).
     */
    CompletableFuture<S> handle(RequestContext context, Q request);
}
