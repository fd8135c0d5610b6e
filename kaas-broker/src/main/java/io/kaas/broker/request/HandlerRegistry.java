package io.kaas.broker.request;

import io.kaas.broker.auth.AccessGate;
import io.kaas.broker.auth.RequestAccess;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.protocol.ApiMessage;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * The APIs the broker serves, each a contract ({@link ApiSpec}) with its handler, and the request
 * pipeline over them: the one place the ApiVersions table is computed from the contracts (so nothing is
 * advertised without a handler), and the one place a request is authorized as its contract says before
 * its handler runs ({@link #handle}). Always contains ApiVersions, answered from this table. Immutable
 * and thread-safe.
 */
public final class HandlerRegistry {

    /** One row of the ApiVersions table. */
    public record ApiRange(short apiKey, short minVersion, short maxVersion) {
    }

    private final AccessGate gate;
    private final Map<ApiMessageType, ServedApi<?, ?>> served = new EnumMap<>(ApiMessageType.class);
    private final List<ApiRange> table;
    private final ApiVersionsHandler apiVersions;

    private HandlerRegistry(AccessGate gate, Collection<? extends ServedApi<?, ?>> given, Features features,
                            BrokerIdentity identity) {
        this.gate = Objects.requireNonNull(gate, "gate");
        for (ServedApi<?, ?> s : given) {
            ApiMessageType api = s.spec().api();
            if (api == ApiMessageType.API_VERSIONS) {
                throw new IllegalArgumentException("ApiVersions is served by the registry itself, not by "
                    + s.handler().getClass().getName());
            }
            ServedApi<?, ?> previous = served.putIfAbsent(api, s);
            if (previous != null) {
                throw new IllegalArgumentException("Two handlers for " + api.apiName() + ": "
                    + previous.handler().getClass().getName() + " and " + s.handler().getClass().getName());
            }
        }
        List<ApiRange> rows = new ArrayList<>();
        for (ServedApi<?, ?> s : served.values()) {
            rows.add(range(s.spec()));
        }
        rows.add(range(ApiContracts.API_VERSIONS));
        rows.sort(Comparator.comparingInt(ApiRange::apiKey));
        this.table = List.copyOf(rows);
        this.apiVersions = new ApiVersionsHandler(table, Objects.requireNonNull(features, "features"),
            Objects.requireNonNull(identity, "identity"));
        served.put(ApiMessageType.API_VERSIONS, ServedApi.of(ApiContracts.API_VERSIONS, apiVersions));
    }

    /**
     * A registry of {@code served} plus ApiVersions, authorizing through {@code gate}.
     *
     * @throws IllegalArgumentException if two handlers serve one API or a handler serves ApiVersions
     */
    public static HandlerRegistry of(AccessGate gate, Collection<? extends ServedApi<?, ?>> served) {
        return new HandlerRegistry(gate, served, Features.none(), BrokerIdentity.UNKNOWN);
    }

    /** As {@link #of(AccessGate, Collection)}, ApiVersions advertising {@code features}. */
    public static HandlerRegistry of(AccessGate gate, Collection<? extends ServedApi<?, ?>> served, Features features) {
        return new HandlerRegistry(gate, served, features, BrokerIdentity.UNKNOWN);
    }

    /**
     * As {@link #of(AccessGate, Collection, Features)}, ApiVersions v5+ answering REBOOTSTRAP_REQUIRED to a client
     * that means another cluster or node than {@code identity} (KIP-1242).
     */
    public static HandlerRegistry of(AccessGate gate, Collection<? extends ServedApi<?, ?>> served, Features features,
                                     BrokerIdentity identity) {
        return new HandlerRegistry(gate, served, features, identity);
    }

    /** As {@link #of(AccessGate, Collection)} with no authorizer. */
    public static HandlerRegistry of(Collection<? extends ServedApi<?, ?>> served) {
        return new HandlerRegistry(AccessGate.ALLOW_ALL, served, Features.none(), BrokerIdentity.UNKNOWN);
    }

    /** The contract of {@code api}, or null if the API is not served. */
    public ApiSpec<?, ?> spec(ApiMessageType api) {
        ServedApi<?, ?> s = served.get(api);
        return s == null ? null : s.spec();
    }

    /** The handler of {@code api}, or null if the API is not served. */
    public ApiHandler<?, ?> handler(ApiMessageType api) {
        ServedApi<?, ?> s = served.get(api);
        return s == null ? null : s.handler();
    }

    /** The ApiVersions handler. */
    public ApiVersionsHandler apiVersions() {
        return apiVersions;
    }

    /** The ApiVersions table, sorted by API key. */
    public List<ApiRange> table() {
        return table;
    }

    /** Whether {@code version} of {@code api} is served (not merely advertised: Produce v0-2 are not). */
    public boolean serves(ApiMessageType api, short version) {
        ServedApi<?, ?> s = served.get(api);
        return s != null && s.spec().serves(version);
    }

    /**
     * The pipeline's authorization step, then the handler: checks the contract's whole-request
     * {@link Requirement}s (a denial is answered without running the handler), then hands the handler
     * {@code body} with a context whose {@link RequestContext#access() access} answers the contract's
     * per-resource {@link io.kaas.broker.auth.Check}s and nothing else.
     *
     * @throws IllegalArgumentException if {@code api} is not served
     */
    public CompletableFuture<? extends ApiMessage> handle(ApiMessageType api, RequestContext context, ApiMessage body) {
        ServedApi<?, ?> s = served.get(api);
        if (s == null) {
            throw new IllegalArgumentException(api.apiName() + " is not served");
        }
        return handle(s, context, body);
    }

    @SuppressWarnings("unchecked")
    private <Q extends ApiMessage, S extends ApiMessage> CompletableFuture<S> handle(ServedApi<Q, S> s,
                                                                                   RequestContext context,
                                                                                   ApiMessage body) {
        Q request = (Q) body;
        ApiSpec<Q, S> spec = s.spec();
        RequestAccess access = gate.forRequest(spec.api().apiName(), spec.checks(), context.who());
        short version = context.apiVersion();
        for (Requirement<Q, S> r : spec.requirements()) {
            String name = r.resource().of(request, version);
            if (name != null && !access.allowed(r.operation(), r.type(), name)) {
                return CompletableFuture.completedFuture(r.denial().answer(request, version, r.type().deniedErrorCode()));
            }
        }
        return s.handler().handle(context.withAccess(access), request);
    }

    private static ApiRange range(ApiSpec<?, ?> spec) {
        return new ApiRange(spec.api().apiKey(), spec.advertisedMinVersion(), spec.maxVersion());
    }
}
