package io.kaas.broker.console;

import io.kaas.broker.auth.ClientSession;
import io.kaas.broker.request.HandlerRegistry;
import io.kaas.broker.request.RequestContext;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.protocol.ApiMessage;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The console's seam into the request pipeline: runs one Kafka request in-process, without a socket, as a given
 * principal. It builds the {@link ClientSession} a connection on {@code listener} would have once authenticated as
 * the caller, and hands the generated request data to {@link HandlerRegistry#handle}, the same step a network
 * request goes through after decoding: the API contract's authorization checks, then its handler. So the console's
 * answers carry the Kafka API's validation, authorization and error codes, and nothing is written twice. Quotas and
 * the request queue are the network layer's and do not apply. Thread-safe.
 */
final class KafkaRequests {

    /** The client id the console's requests carry (in logs and to authorizers). */
    static final String CLIENT_ID = "kaas-console";
    private static final long TIMEOUT_SECONDS = 35;

    private final HandlerRegistry registry;
    private final String listenerName;
    private final String securityProtocol;
    private final AtomicInteger correlation = new AtomicInteger();

    /**
     * @param registry         the broker's handlers
     * @param listenerName     the listener the console's requests appear to arrive on (Metadata answers its endpoints)
     * @param securityProtocol that listener's security protocol name
     */
    KafkaRequests(HandlerRegistry registry, String listenerName, String securityProtocol) {
        this.registry = registry;
        this.listenerName = listenerName;
        this.securityProtocol = securityProtocol;
    }

    /**
     * The response of {@code api} v{@code version} to {@code request}, run as {@code caller}.
     *
     * @throws ApiError 500 if the API or version is not served, 504 if the handler does not answer in time
     */
    @SuppressWarnings("unchecked")
    <S extends ApiMessage> S call(Caller caller, ApiMessageType api, int version, ApiMessage request) {
        short v = (short) version;
        if (!registry.serves(api, v)) {
            throw new ApiError(500, "UNSUPPORTED_VERSION", api.apiName() + " v" + version
                + " is not served by this broker");
        }
        ClientSession session = new ClientSession(listenerName, securityProtocol, caller.remote(), true);
        session.authenticated(caller.principal(), ClientSession.NEVER);
        RequestContext context = new RequestContext(v, correlation.incrementAndGet(), CLIENT_ID, session);
        CompletableFuture<? extends ApiMessage> future = registry.handle(api, context, request);
        try {
            return (S) future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiError(503, "INTERRUPTED", api.apiName() + " interrupted (the broker is stopping)");
        } catch (TimeoutException e) {
            throw new ApiError(504, "REQUEST_TIMED_OUT", api.apiName() + " did not complete in " + TIMEOUT_SECONDS + " s");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new IllegalStateException(api.apiName() + " failed in its handler: " + cause, cause);
        }
    }
}
