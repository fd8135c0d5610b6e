package io.kaas.broker.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kaas.broker.config.BrokerConfig;
import io.kaas.broker.config.ConfigException;
import io.kaas.broker.request.RequestContext;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.FetchRequestData;
import io.kaas.wire.message.JoinGroupRequestData;
import io.kaas.wire.message.MetadataRequestData;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class SlowRequestLogTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private final Logger logger = (Logger) LoggerFactory.getLogger(SlowRequestLog.class);
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private final RequestContext context = new RequestContext((short) 12, 7, "billing-app",
            new InetSocketAddress("127.0.0.1", 40123), "PLAINTEXT");

    @BeforeEach
    void capture() {
        appender.start();
        logger.addAppender(appender);
    }

    @AfterEach
    void release() {
        logger.detachAppender(appender);
    }

    @Test
    void aRequestOverTheThresholdIsLoggedWithApiClientPrincipalAndTime() {
        SlowRequestLog log = new SlowRequestLog(1000);
        assertThat(log.completed(ApiMessageType.METADATA, context, new MetadataRequestData(), 0, 1000 * MS)).isFalse();
        assertThat(log.completed(ApiMessageType.METADATA, context, new MetadataRequestData(), 5 * MS, 1500 * MS))
                .isTrue();
        assertThat(lines()).containsExactly("Slow request: Metadata v12 from client id 'billing-app' at "
                + "/127.0.0.1:40123 (User:ANONYMOUS, listener PLAINTEXT) took 1495 ms");
    }

    @Test
    void aLongPollCountsPastTheWaitItAskedFor() {
        SlowRequestLog log = new SlowRequestLog(1000);
        FetchRequestData fetch = new FetchRequestData().setMaxWaitMs(30_000);
        assertThat(log.completed(ApiMessageType.FETCH, context, fetch, 0, 30_500 * MS)).isFalse();
        assertThat(log.completed(ApiMessageType.FETCH, context, fetch, 0, 31_001 * MS)).isTrue();
        JoinGroupRequestData join = new JoinGroupRequestData().setRebalanceTimeoutMs(60_000).setSessionTimeoutMs(45_000);
        assertThat(log.completed(ApiMessageType.JOIN_GROUP, context, join, 0, 59_000 * MS)).isFalse();
        assertThat(lines()).hasSize(1).allMatch(l -> l.startsWith("Slow request: Fetch v12 "));
    }

    @Test
    void zeroTurnsTheLogOff() {
        assertThat(SlowRequestLog.OFF.completed(ApiMessageType.METADATA, context, new MetadataRequestData(), 0,
                3_600_000 * MS)).isFalse();
        assertThat(new SlowRequestLog(0).completed(ApiMessageType.METADATA, context, new MetadataRequestData(), 0,
                3_600_000 * MS)).isFalse();
        assertThat(lines()).isEmpty();
    }

    @Test
    void theKeyDefaultsToOneSecondAndRefusesANegativeOrMalformedValue() {
        assertThat(BrokerConfig.of(Map.of()).slowRequestLogThresholdMs()).isEqualTo(1000);
        assertThat(BrokerConfig.of(Map.of("slow.request.log.threshold.ms", "0")).slowRequestLogThresholdMs()).isZero();
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("slow.request.log.threshold.ms", "-1")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("slow.request.log.threshold.ms")
                .extracting(e -> ((ConfigException) e).key()).isEqualTo("slow.request.log.threshold.ms");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("slow.request.log.threshold.ms", "1s")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("1s");
        assertThatThrownBy(() -> new SlowRequestLog(-5)).isInstanceOf(IllegalArgumentException.class);
    }

    private List<String> lines() {
        return appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    }
}
