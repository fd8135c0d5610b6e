package io.kaas.broker.request;

import io.kaas.wire.protocol.ApiMessage;
import java.util.concurrent.CompletableFuture;

/**
 * Serves one Kafka API. One class per API, registered with its contract ({@link ApiSpec}, a row of
 * {@link ApiContracts}) in {@link HandlerRegistry}: the contract, not the handler, says which versions
 * are served and what the request must be allowed to do.
 *
 * <p>{@link #handle} runs on a request-handler thread (never a Netty event loop) and may block on
 * storage or cluster-state I/O; it returns a future so that waits (fsync, long-poll) park without a
 * thread. It runs only once the contract's whole-request checks passed, and asks per-resource questions
 * through {@link RequestContext#access()}. Errors a client should see are answered inside the response
 * with Kafka's error codes; an exception thrown or a future failed here is answered by the network layer
 * with the API's top-level error response where one exists, otherwise the connection is closed.
 *
 * @param <Q> the generated request class
 * @param <S> the generated response class
 */
@FunctionalInterface
public interface ApiHandler<Q extends ApiMessage, S extends ApiMessage> {

    /**
     * The response to {@code request}, or a future completed with {@code null} when no response must
     * be sent (Produce with {@code acks=0}).
     */
    CompletableFuture<S> handle(RequestContext context, Q request);
}
