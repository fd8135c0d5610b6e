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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's metric registry (Micrometer, Prometheus) with the JVM and process binders, and the series sources that
 * are refreshed when /metrics is scraped (never on the request path).
 */
public final class BrokerMetrics implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerMetrics.class);

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    /** Made where the JVM binders are bound: its constructor reads the platform's memory-pool MXBeans. */
    private volatile JvmGcMetrics gc;
    private final List<Runnable> beforeScrape = new CopyOnWriteArrayList<>();
    private final AtomicReference<CompletableFuture<Void>> jvmBinding = new AtomicReference<>();
    private static final long JVM_BINDING_WAIT_SECONDS = 10;
    private boolean closed;

    /** The registry alone: the JVM and process series come with {@link #bindJvmMetrics(Executor)}. */
    public BrokerMetrics() {
    }

    /**
     * Binds the JVM and process binders (memory, GC, threads, class loading, file descriptors, CPU, uptime) on
     * {@code executor}. Called once the broker serves: binding them starts the platform MXBeans, which would cost the
     * start-up ~150 ms on a small machine. A scrape waits until they are bound, so no scrape lacks them. GC pauses
     * ({@code jvm_gc_pause_seconds}) are counted from then on.
     */
    public void bindJvmMetrics(Executor executor) {
        CompletableFuture<Void> binding = new CompletableFuture<>();
        if (!jvmBinding.compareAndSet(null, binding)) {
            throw new IllegalStateException("the JVM metrics are bound already");
        }
        executor.execute(() -> {
            try {
                new ClassLoaderMetrics().bindTo(registry);
                new JvmMemoryMetrics().bindTo(registry);
                JvmGcMetrics gcMetrics = new JvmGcMetrics();
                synchronized (this) {
                    if (closed) {
                        gcMetrics.close();
                        binding.complete(null);
                        return;
                    }
                    gc = gcMetrics;
                }
                gcMetrics.bindTo(registry);
                new JvmThreadMetrics().bindTo(registry);
                new FileDescriptorMetrics().bindTo(registry);
                new ProcessorMetrics().bindTo(registry);
                new UptimeMetrics().bindTo(registry);
                binding.complete(null);
            } catch (RuntimeException e) {
                LOG.atWarn().setCause(e).log("the JVM and process metrics cannot be bound: {}", e.toString());
                binding.completeExceptionally(e);
            }
        });
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
        CompletableFuture<Void> binding = jvmBinding.get();
        if (binding != null) {
            try {
                binding.get(JVM_BINDING_WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                // scraped without them: the rest of the series is still worth answering
            }
        }
        for (Runnable r : beforeScrape) {
            r.run();
        }
        return registry.scrape(contentType);
    }

    @Override
    public void close() {
        JvmGcMetrics gcMetrics;
        synchronized (this) {
            closed = true;
            gcMetrics = gc;
        }
        if (gcMetrics != null) {
            gcMetrics.close();
        }
        registry.close();
    }
}
