package io.kaas.broker.quota;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.request.RequestContext;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.MetadataResponseData;
import io.kaas.wire.message.ProduceResponseData;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class QuotaThrottleTest {
    private final AtomicLong now = new AtomicLong(1_000_000);
    private final ClientQuotaManager manager = new ClientQuotaManager(11, 1000, now::get);
    private final QuotaThrottle throttle = new QuotaThrottle(manager);
    private final RequestContext context = new RequestContext((short) 9, 1, "app",
            new InetSocketAddress("127.0.0.1", 5555), "PLAINTEXT");

    @Test
    void produceBytesOverTheQuotaSetTheResponsesThrottleTime() {
        manager.update(Map.of(Map.of("client-id", "app"), Map.of("producer_byte_rate", 1000.0)));
        ProduceResponseData response = new ProduceResponseData();
        assertThat(throttle.throttleMs(ApiMessageType.PRODUCE, context, 10_000, response, 0)).isZero();
        assertThat(response.throttleTimeMs()).isZero();
        long ms = throttle.throttleMs(ApiMessageType.PRODUCE, context, 10_000, response, 0);
        // 20 000 bytes over a 10 s window, against 1000/s: 10 s.
        assertThat(ms).isEqualTo(10_000);
        assertThat(response.throttleTimeMs()).isEqualTo(10_000);
        assertThat(throttle.throttleMs(ApiMessageType.PRODUCE, context, 10_000, null, 0))
                .as("acks=0: no response, the connection is still muted").isPositive();
    }

    @Test
    void requestPercentageChargesHandlerTimeOfEveryApiButTheExemptOnes() {
        manager.update(Map.of(Map.of("user", QuotaStore.DEFAULT_NAME), Map.of("request_percentage", 10.0)));
        MetadataResponseData response = new MetadataResponseData();
        // 10 % of one thread over a 10 s window is one second of handler time.
        long nanos = TimeUnit.MILLISECONDS.toNanos(1_000);
        assertThat(throttle.throttleMs(ApiMessageType.METADATA, context, 100, response, nanos)).isZero();
        assertThat(throttle.throttleMs(ApiMessageType.API_VERSIONS, context, 100, null, nanos * 5)).isZero();
        long ms = throttle.throttleMs(ApiMessageType.METADATA, context, 100, response, nanos);
        assertThat(ms).isEqualTo(10_000);
        assertThat(response.throttleTimeMs()).isEqualTo(10_000);
    }

    @Test
    void nothingIsChargedWithoutAQuota() {
        ProduceResponseData response = new ProduceResponseData();
        assertThat(throttle.throttleMs(ApiMessageType.PRODUCE, context, Integer.MAX_VALUE, response,
                Long.MAX_VALUE / 2)).isZero();
        assertThat(response.throttleTimeMs()).isZero();
    }
}
