package io.kaas.broker.request;

import io.kaas.wire.message.ApiVersionsRequestData;
import io.kaas.wire.message.ApiVersionsResponseData;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;

/**
 * ApiVersions ({@link ApiContracts#API_VERSIONS}): the registry's table, and from v3 the supported and finalized
 * features ({@link Features}: {@code transaction.version}, {@code group.version}) with their epoch, throttle 0. v3+ requests with an invalid client software
 * name or version are answered INVALID_REQUEST, as Kafka does. Requests above the maximum never reach this
 * handler: the network layer answers them with {@link #unsupportedVersionResponse()} (KIP-511).
 */
public final class ApiVersionsHandler implements ApiHandler<ApiVersionsRequestData, ApiVersionsResponseData> {

    static final short NONE = 0;
    static final short UNSUPPORTED_VERSION = 35;
    static final short INVALID_REQUEST = 42;

    /** Kafka's {@code ApiVersionsRequest} pattern for client software name and version. */
    private static final Pattern SOFTWARE = Pattern.compile("[a-zA-Z0-9](?:[a-zA-Z0-9\\-.]*[a-zA-Z0-9])?");

    private final List<HandlerRegistry.ApiRange> table;
    private final Features features;

    ApiVersionsHandler(List<HandlerRegistry.ApiRange> table, Features features) {
        this.table = List.copyOf(table);
        this.features = features;
    }

    @Override
    public CompletableFuture<ApiVersionsResponseData> handle(RequestContext context, ApiVersionsRequestData request) {
        if (context.apiVersion() >= 3 && !isValid(request)) {
            return CompletableFuture.completedFuture(new ApiVersionsResponseData().setErrorCode(INVALID_REQUEST));
        }
        return CompletableFuture.completedFuture(response(NONE));
    }

    /** The answer to an ApiVersions request above our maximum, to be encoded as v0 (KIP-511). */
    public ApiVersionsResponseData unsupportedVersionResponse() {
        return response(UNSUPPORTED_VERSION);
    }

    private ApiVersionsResponseData response(short errorCode) {
        List<ApiVersionsResponseData.ApiVersion> keys = new ArrayList<>(table.size());
        for (HandlerRegistry.ApiRange r : table) {
            keys.add(new ApiVersionsResponseData.ApiVersion()
                .setApiKey(r.apiKey())
                .setMinVersion(r.minVersion())
                .setMaxVersion(r.maxVersion()));
        }
        ApiVersionsResponseData response = new ApiVersionsResponseData()
            .setErrorCode(errorCode)
            .setApiKeys(keys)
            .setThrottleTimeMs(0);
        if (errorCode != NONE) {
            return response;
        }
        List<ApiVersionsResponseData.SupportedFeatureKey> supported = new ArrayList<>();
        features.supported().forEach((name, range) -> supported.add(new ApiVersionsResponseData.SupportedFeatureKey()
            .setName(name).setMinVersion(range.min()).setMaxVersion(range.max())));
        List<ApiVersionsResponseData.FinalizedFeatureKey> finalized = new ArrayList<>();
        features.finalized().forEach((name, level) -> finalized.add(new ApiVersionsResponseData.FinalizedFeatureKey()
            .setName(name).setMinVersionLevel(level).setMaxVersionLevel(level)));
        supported.sort(Comparator.comparing(ApiVersionsResponseData.SupportedFeatureKey::name));
        finalized.sort(Comparator.comparing(ApiVersionsResponseData.FinalizedFeatureKey::name));
        return response.setSupportedFeatures(supported).setFinalizedFeaturesEpoch(features.epoch())
            .setFinalizedFeatures(finalized);
    }

    static boolean isValid(ApiVersionsRequestData request) {
        return valid(request.clientSoftwareName()) && valid(request.clientSoftwareVersion());
    }

    private static boolean valid(String s) {
        return s != null && SOFTWARE.matcher(s).matches();
    }
}
