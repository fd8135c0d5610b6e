package io.kaas.broker.quota;

import io.kaas.broker.network.RequestThrottle;
import io.kaas.broker.request.RequestContext;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.protocol.ApiMessage;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Kafka's client quotas on the request path: Produce is charged its request's bytes ({@code producer_byte_rate}),
 * Fetch its response's bytes ({@code consumer_byte_rate}), every request but the exempt ones its handler's time as
 * a percentage of one thread ({@code request_percentage}); CreateTopics, CreatePartitions and DeleteTopics come with
 * the throttle time their handler's {@code controller_mutation_rate} check set. The response carries the larger
 * throttle time and the connection is muted for it (a request version older than KIP-219 also has its response held
 * back for that time, by the dispatcher). With no quota set, two volatile reads per request.
 */
public final class QuotaThrottle implements RequestThrottle {
    /** As Kafka: the APIs a client needs to learn of its throttling or to authenticate are not request-throttled. */
    private static final Set<ApiMessageType> REQUEST_EXEMPT = Set.of(ApiMessageType.API_VERSIONS,
            ApiMessageType.SASL_HANDSHAKE, ApiMessageType.SASL_AUTHENTICATE);
    private static final double NANOS_TO_PERCENT = 100.0 / TimeUnit.SECONDS.toNanos(1);

    private final ClientQuotaManager quotas;

    public QuotaThrottle(ClientQuotaManager quotas) {
        this.quotas = quotas;
    }

    @Override
    public long throttleMs(ApiMessageType api, RequestContext context, int requestBytes, ApiMessage response,
                           long handlerNanos) {
        long throttle = 0;
        if (api == ApiMessageType.PRODUCE && quotas.active(QuotaType.PRODUCE)) {
            throttle = quotas.throttleMs(QuotaType.PRODUCE, user(context), context.clientId(), requestBytes);
        } else if (api == ApiMessageType.FETCH && response != null && quotas.active(QuotaType.FETCH)) {
            throttle = quotas.throttleMs(QuotaType.FETCH, user(context), context.clientId(),
                    response.size(context.apiVersion()));
        } else if (isMutation(api) && response != null && quotas.active(QuotaType.CONTROLLER_MUTATION)) {
            throttle = ThrottleTimes.current(response);
        }
        if (quotas.active(QuotaType.REQUEST) && !REQUEST_EXEMPT.contains(api)) {
            throttle = Math.max(throttle, quotas.throttleMs(QuotaType.REQUEST, user(context), context.clientId(),
                    handlerNanos * NANOS_TO_PERCENT));
        }
        if (throttle > 0 && response != null) {
            ThrottleTimes.raise(response, throttle);
        }
        return throttle;
    }

    /** The APIs whose handlers set a controller_mutation_rate throttle time in the response (KIP-599). */
    private static boolean isMutation(ApiMessageType api) {
        return api == ApiMessageType.CREATE_TOPICS || api == ApiMessageType.CREATE_PARTITIONS
                || api == ApiMessageType.DELETE_TOPICS;
    }

    private static String user(RequestContext context) {
        return context.principal() == null ? "" : context.principal().name();
    }
}
