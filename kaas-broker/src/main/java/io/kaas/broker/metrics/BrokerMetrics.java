package io.kaas.broker.metrics;

import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The broker's metric registry (Micrometer, Prometheus) with the JVM and process binders, and the series sources that
 * are refreshed when /metrics is scraped (never on the request path).
 */
public final class BrokerMetrics implements AutoCloseable {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JvmGcMetrics gc = new JvmGcMetrics();
    private final List<Runnable> beforeScrape = new CopyOnWriteArrayList<>();

    public BrokerMetrics() {
        new ClassLoaderMetrics().bindTo(registry);
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** Adds work done before each scrape (series computed at scrape time: offsets, lag, new topics' counters). */
    public void beforeScrape(Runnable refresh) {
        beforeScrape.add(refresh);
    }

    /** The registry's text, refreshed first, in {@code contentType} (Prometheus text or OpenMetrics). */
    public String scrape(String contentType) {
        for (Runnable r : beforeScrape) {
            r.run();
        }
        return registry.scrape(contentType);
    }

    @Override
    public void close() {
        gc.close();
        registry.close();
    }
}
