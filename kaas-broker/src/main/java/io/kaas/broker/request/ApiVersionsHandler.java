package io.kaas.broker.request;

import io.kaas.wire.message.ApiVersionsRequestData;
import io.kaas.wire.message.ApiVersionsResponseData;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ApiVersions ({@link ApiContracts#API_VERSIONS}): the registry's table, and from v3 the supported and finalized
 * features ({@link Features}: {@code transaction.version}, {@code group.version}) with their epoch, throttle 0. v3+ requests with an invalid client software
 * name or version are answered INVALID_REQUEST, as Kafka does. Requests above the maximum never reach this
 * handler: the network layer answers them with {@link #unsupportedVersionResponse()} (KIP-511).
 *
 * <p>v5 (KIP-1242, Kafka 4.4): a client that knows the cluster sends its cluster id and the node id it means to
 * reach ({@code metadata.cluster.check.enable}, on by default). One without the other is INVALID_REQUEST; a cluster
 * id or node id that is not this broker's is REBOOTSTRAP_REQUIRED (no API keys), and the client re-bootstraps
 * instead of talking to the wrong broker (a host name reused by another broker after a restart). As Kafka, the check
 * is made only once a connection is authenticated: on a SASL listener the ApiVersions sent before the handshake is
 * answered as by Kafka's authenticator, without it.
 */
public final class ApiVersionsHandler implements ApiHandler<ApiVersionsRequestData, ApiVersionsResponseData> {

    static final short NONE = 0;
    static final short UNSUPPORTED_VERSION = 35;
    static final short INVALID_REQUEST = 42;
    static final short REBOOTSTRAP_REQUIRED = 129;

    private static final Logger LOG = LoggerFactory.getLogger(ApiVersionsHandler.class);

    /** Kafka's {@code ApiVersionsRequest} pattern for client software name and version. */
    private static final Pattern SOFTWARE = Pattern.compile("[a-zA-Z0-9](?:[a-zA-Z0-9\\-.]*[a-zA-Z0-9])?");

    private final List<HandlerRegistry.ApiRange> table;
    private final Features features;
    private final BrokerIdentity identity;

    ApiVersionsHandler(List<HandlerRegistry.ApiRange> table, Features features, BrokerIdentity identity) {
        this.table = List.copyOf(table);
        this.features = features;
        this.identity = identity;
    }

    @Override
    public CompletableFuture<ApiVersionsResponseData> handle(RequestContext context, ApiVersionsRequestData request) {
        if (context.apiVersion() >= 3 && !isValid(request)) {
            return CompletableFuture.completedFuture(new ApiVersionsResponseData().setErrorCode(INVALID_REQUEST));
        }
        if (context.apiVersion() >= 5 && (request.clusterId() == null) != (request.nodeId() == -1)) {
            LOG.atInfo().addKeyValue("remote", context.clientAddress()).addKeyValue("clientId", context.clientId())
                .log("ApiVersions v5 from {} (client id {}) names cluster {} and node {}: both or neither must be given;"
                    + " answered INVALID_REQUEST", context.clientAddress(), context.clientId(), request.clusterId(),
                    request.nodeId());
            return CompletableFuture.completedFuture(new ApiVersionsResponseData().setErrorCode(INVALID_REQUEST));
        }
        if (context.apiVersion() >= 5 && request.clusterId() != null && checked(context) && misrouted(request)) {
            LOG.atInfo().addKeyValue("remote", context.clientAddress()).addKeyValue("clientId", context.clientId())
                .log("ApiVersions from {} (client id {}) is meant for cluster {} node {}, but this is cluster {}"
                    + " node {}: answered REBOOTSTRAP_REQUIRED", context.clientAddress(), context.clientId(),
                    request.clusterId(), request.nodeId(), identity.clusterId().get(), identity.nodeId());
            return CompletableFuture.completedFuture(new ApiVersionsResponseData().setErrorCode(REBOOTSTRAP_REQUIRED)
                .setThrottleTimeMs(0));
        }
        return CompletableFuture.completedFuture(response(NONE));
    }

    /** Kafka checks the cluster in KafkaApis, after authentication; its SASL authenticator answers without it. */
    private boolean checked(RequestContext context) {
        return !identity.unknown() && !(context.session().usesSasl() && !context.session().authenticated());
    }

    private boolean misrouted(ApiVersionsRequestData request) {
        return !request.clusterId().equals(identity.clusterId().get()) || request.nodeId() != identity.nodeId();
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
