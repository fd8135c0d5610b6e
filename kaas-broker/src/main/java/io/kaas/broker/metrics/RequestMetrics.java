package io.kaas.broker.metrics;

import io.kaas.broker.network.RequestObserver;
import io.kaas.broker.request.RequestContext;
import io.kaas.wire.message.ApiMessageType;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Kafka's RequestMetrics per API, as Strimzi's rules name them: {@code kafka_network_requestmetrics_requests_total
 * {request,version}} and {@code kafka_network_requestmetrics_totaltimems{request,quantile}} (with {@code _count}).
 * Each meter is made on its API's (and version's) first request and then found by array index: no tag lookup, no
 * lock per request.
 */
public final class RequestMetrics implements RequestObserver {

    private static final int MAX_KEY = 128;
    private static final int MAX_VERSION = 32;
    private final MeterRegistry registry;
    private final AtomicReferenceArray<Counter> requests = new AtomicReferenceArray<>(MAX_KEY * MAX_VERSION);
    private final AtomicReferenceArray<DistributionSummary> totalTime = new AtomicReferenceArray<>(MAX_KEY);

    public RequestMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Kafka's request name: its API name, Fetch as FetchConsumer (kaas has no follower fetches). */
    static String requestName(ApiMessageType api) {
        return api == ApiMessageType.FETCH ? "FetchConsumer" : api.apiName();
    }

    @Override
    public void completed(ApiMessageType api, RequestContext context, int requestBytes, long startNanos, long endNanos) {
        int key = api.apiKey();
        int version = context.apiVersion();
        if (key < 0 || key >= MAX_KEY || version < 0 || version >= MAX_VERSION) {
            return;
        }
        int slot = key * MAX_VERSION + version;
        Counter c = requests.get(slot);
        if (c == null) {
            c = Counter.builder("kafka.network.requestmetrics.requests").description("Requests answered, per API and version")
                .tag("request", requestName(api)).tag("version", Integer.toString(version)).register(registry);
            requests.set(slot, c);
        }
        c.increment();
        DistributionSummary t = totalTime.get(key);
        if (t == null) {
            t = DistributionSummary.builder("kafka.network.requestmetrics.totaltimems")
                .description("Milliseconds from the request handed to its handler to its answer")
                .tag("request", requestName(api))
                .publishPercentiles(0.5, 0.75, 0.95, 0.98, 0.99, 0.999)
                .register(registry);
            totalTime.set(key, t);
        }
        t.record((endNanos - startNanos) / (double) TimeUnit.MILLISECONDS.toNanos(1));
    }
}
