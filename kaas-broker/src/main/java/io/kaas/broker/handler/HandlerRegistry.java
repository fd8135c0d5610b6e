package io.kaas.broker.handler;

import io.kaas.wire.message.ApiMessageType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The handlers the broker serves, one per API, and the version table ApiVersions advertises — the
 * one place that table is computed, so nothing is advertised without a handler. Always contains an
 * {@link ApiVersionsHandler} answering from this table. Immutable and thread-safe.
 */
public final class HandlerRegistry {

    /** One row of the ApiVersions table. */
    public record ApiRange(short apiKey, short minVersion, short maxVersion) {
    }

    private final Map<ApiMessageType, ApiHandler<?, ?>> handlers = new EnumMap<>(ApiMessageType.class);
    private final List<ApiRange> table;
    private final ApiVersionsHandler apiVersions;

    private HandlerRegistry(Collection<? extends ApiHandler<?, ?>> given) {
        for (ApiHandler<?, ?> h : given) {
            if (h.api() == ApiMessageType.API_VERSIONS) {
                throw new IllegalArgumentException("ApiVersions is served by the registry itself, not by "
                    + h.getClass().getName());
            }
            check(h);
            ApiHandler<?, ?> previous = handlers.putIfAbsent(h.api(), h);
            if (previous != null) {
                throw new IllegalArgumentException("Two handlers for " + h.api().apiName() + ": "
                    + previous.getClass().getName() + " and " + h.getClass().getName());
            }
        }
        List<ApiRange> rows = new ArrayList<>();
        for (ApiHandler<?, ?> h : handlers.values()) {
            rows.add(new ApiRange(h.api().apiKey(), advertisedMin(h), h.maxVersion()));
        }
        rows.add(new ApiRange(ApiMessageType.API_VERSIONS.apiKey(), ApiVersionsHandler.MIN_VERSION,
            ApiVersionsHandler.MAX_VERSION));
        rows.sort(Comparator.comparingInt(ApiRange::apiKey));
        this.table = List.copyOf(rows);
        this.apiVersions = new ApiVersionsHandler(table);
        check(apiVersions);
        handlers.put(ApiMessageType.API_VERSIONS, apiVersions);
    }

    /**
     * A registry of {@code handlers} plus the ApiVersions handler.
     *
     * @throws IllegalArgumentException if two handlers serve one API, if a handler serves ApiVersions,
     *                                  or if a handler's versions fall outside the schema's stable range
     */
    public static HandlerRegistry of(Collection<? extends ApiHandler<?, ?>> handlers) {
        return new HandlerRegistry(handlers);
    }

    /** The handler of {@code api}, or null if the API is not served. */
    public ApiHandler<?, ?> handler(ApiMessageType api) {
        return handlers.get(api);
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
        ApiHandler<?, ?> h = handlers.get(api);
        return h != null && version >= h.minVersion() && version <= h.maxVersion();
    }

    /** Produce is advertised from v0 though v0-2 are refused: librdkafka needs it (KAFKA-18659). */
    static short advertisedMin(ApiHandler<?, ?> h) {
        return h.api() == ApiMessageType.PRODUCE ? 0 : h.minVersion();
    }

    private static void check(ApiHandler<?, ?> h) {
        ApiMessageType api = h.api();
        String name = api.apiName() + " handler " + h.getClass().getName();
        if (h.minVersion() > h.maxVersion()) {
            throw new IllegalArgumentException(name + ": minVersion " + h.minVersion() + " > maxVersion " + h.maxVersion());
        }
        if (h.minVersion() < api.lowestSupportedVersion()) {
            throw new IllegalArgumentException(name + ": minVersion " + h.minVersion()
                + " is below the schema's lowest version " + api.lowestSupportedVersion());
        }
        if (h.maxVersion() > api.highestSupportedVersion()) {
            throw new IllegalArgumentException(name + ": maxVersion " + h.maxVersion()
                + " is above the schema's highest version " + api.highestSupportedVersion());
        }
        if (api.latestVersionUnstable() && h.maxVersion() == api.highestSupportedVersion()) {
            throw new IllegalArgumentException(name + ": maxVersion " + h.maxVersion()
                + " is the schema's unstable latest version; never advertise it");
        }
    }
}
