package io.kaas.broker.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Timer;
import io.kaas.broker.metrics.BrokerMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The charts sampler over a registry holding the broker's meters under their names. */
class ChartsSamplerTest {

    /** The broker's own registry (Prometheus), as /metrics serves it. */
    private final MeterRegistry registry = new BrokerMetrics().registry();
    private final AtomicLong messagesIn = new AtomicLong();
    private final AtomicLong bytesIn = new AtomicLong();
    private final AtomicLong bytesOut = new AtomicLong();
    private final Map<String, Long> lag = new HashMap<>();

    ChartsSamplerTest() {
        FunctionCounter.builder("kafka.server.brokertopicmetrics.messagesin", messagesIn, AtomicLong::get)
            .register(registry);
        FunctionCounter.builder("kafka.server.brokertopicmetrics.messagesin", new AtomicLong(999), AtomicLong::get)
            .tag("topic", "t").register(registry);
        FunctionCounter.builder("kafka.server.brokertopicmetrics.bytesin", bytesIn, AtomicLong::get).register(registry);
        FunctionCounter.builder("kafka.server.brokertopicmetrics.bytesout", bytesOut, AtomicLong::get).register(registry);
    }

    private JsonNode render(ChartsSampler s) throws Exception {
        return Json.MAPPER.readTree(s.render().body());
    }

    @Test
    void ratesAreTheCountersIncreaseOverTheInterval() throws Exception {
        ChartsSampler s = new ChartsSampler(registry, () -> lag);
        s.sample(10_000);
        messagesIn.set(50);
        bytesIn.set(5_000);
        bytesOut.set(10_000);
        s.sample(15_000);
        JsonNode series = render(s).get("series");
        assertThat(series.get("messagesInPerSec").get(0).get(0).asLong()).isEqualTo(15_000);
        assertThat(series.get("messagesInPerSec").get(0).get(1).asDouble()).isEqualTo(10.0);
        assertThat(series.get("bytesInPerSec").get(0).get(1).asDouble()).isEqualTo(1000.0);
        assertThat(series.get("bytesOutPerSec").get(0).get(1).asDouble()).isEqualTo(2000.0);
        assertThat(series.get("messagesOutPerSec").get(0).get(1).asDouble()).as("2000 B/s at 100 B a record")
            .isEqualTo(20.0);
        assertThat(series.get("produceLatencyP99Ms").get(0).get(1).isNull()).isTrue();
    }

    @Test
    void latenciesComeFromTheRequestTimesAndTheFlushTimer() throws Exception {
        DistributionSummary produce = DistributionSummary.builder("kafka.network.requestmetrics.totaltimems")
            .tag("request", "Produce").publishPercentiles(0.5, 0.99).register(registry);
        Timer flush = Timer.builder("kaas.log.flush").publishPercentileHistogram()
            .minimumExpectedValue(Duration.ofNanos(50_000)).maximumExpectedValue(Duration.ofSeconds(30))
            .register(registry);
        ChartsSampler s = new ChartsSampler(registry, () -> lag);
        s.sample(0);
        for (int i = 0; i < 100; i++) {
            produce.record(7);
            flush.record(Duration.ofMillis(2));
        }
        s.sample(5_000);
        s.sample(10_000);
        JsonNode series = render(s).get("series");
        assertThat(series.get("produceLatencyP99Ms").get(0).get(1).asDouble()).isBetween(6.5, 7.5);
        double fsync = series.get("fsyncLatencyP99Ms").get(0).get(1).asDouble();
        assertThat(fsync).as("the bucket holding 2 ms").isBetween(2.0, 3.0);
        assertThat(series.get("fsyncLatencyP99Ms").get(1).get(1).isNull()).as("no flush in the second interval")
            .isTrue();
    }

    @Test
    void keepsFifteenMinutesAndEachGroupsLag() throws Exception {
        ChartsSampler s = new ChartsSampler(registry, () -> lag);
        lag.put("g", 5L);
        for (int i = 0; i <= 200; i++) {
            lag.put("g", (long) i);
            s.sample(i * 5_000L);
        }
        JsonNode r = render(s);
        assertThat(r.get("series").get("messagesInPerSec")).hasSize(180);
        assertThat(r.get("series").get("messagesInPerSec").get(179).get(0).asLong()).isEqualTo(1_000_000);
        assertThat(s.lagHistory("g")).hasSize(180);
        assertThat(s.lagHistory("g").get(179)[1]).isEqualTo(200L);
        assertThat(s.lagHistory("unknown")).isEmpty();
    }
}
