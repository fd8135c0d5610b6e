package io.kaas.broker.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/** The JVM and process series are bound off the start-up path, and a scrape never goes without them once asked. */
class BrokerMetricsTest {
    private static final String TEXT = "text/plain; version=0.0.4; charset=utf-8";

    @Test
    void theJvmSeriesAppearOnlyOnceBoundAndAScrapeWaitsForTheBinding() {
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try (BrokerMetrics metrics = new BrokerMetrics()) {
            assertThat(metrics.scrape(TEXT)).doesNotContain("jvm_memory_used_bytes");

            metrics.bindJvmMetrics(executor);

            // no waiting in the test: the scrape itself waits for the binding
            String scrape = metrics.scrape(TEXT);
            assertThat(scrape).contains("jvm_memory_used_bytes").contains("process_uptime_seconds")
                .contains("jvm_threads_live_threads").contains("jvm_classes_loaded_classes");
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void bindingTwiceIsRefused() {
        try (BrokerMetrics metrics = new BrokerMetrics()) {
            metrics.bindJvmMetrics(Runnable::run);
            assertThatThrownBy(() -> metrics.bindJvmMetrics(Runnable::run))
                .isInstanceOf(IllegalStateException.class).hasMessage("the JVM metrics are bound already");
        }
    }
}
