package io.kaas.broker.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;

/**
 * Kafka's NetworkProcessorAvgIdlePercent (0 to 1) for the Netty event loops that read and write Kafka connections
 * (threads {@code kaas-network-*}): one minus the CPU time they used over the wall time since the previous scrape.
 * Computed when scraped, from the JVM's per-thread CPU clock; never on the request path.
 */
final class NetworkIdle {

    private static final String PREFIX = "kaas-network";
    /** Looked up on the first scrape: the platform MXBeans stay off the start-up path. */
    private ThreadMXBean threads;
    private Map<Long, Long> lastCpu = new HashMap<>();
    private long lastWall = System.nanoTime();
    private double idle = 1.0;

    static void register(MeterRegistry registry) {
        NetworkIdle n = new NetworkIdle();
        Gauge.builder("kafka.network.socketserver.networkprocessoravgidle.percent", n, NetworkIdle::sample)
            .description("Fraction of time the network event loops were idle since the last scrape (0 to 1)")
            .strongReference(true).register(registry);
    }

    synchronized double sample() {
        if (threads == null) {
            threads = ManagementFactory.getThreadMXBean();
        }
        if (!threads.isThreadCpuTimeSupported()) {
            return Double.NaN;
        }
        long now = System.nanoTime();
        Map<Long, Long> cpu = new HashMap<>();
        long used = 0;
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info == null || !info.getThreadName().startsWith(PREFIX)) {
                continue;
            }
            long t = threads.getThreadCpuTime(info.getThreadId());
            if (t < 0) {
                continue;
            }
            cpu.put(info.getThreadId(), t);
            used += t - lastCpu.getOrDefault(info.getThreadId(), t);
        }
        long wall = now - lastWall;
        if (wall > 0 && !cpu.isEmpty() && !lastCpu.isEmpty()) {
            idle = Math.max(0, Math.min(1, 1 - used / ((double) wall * cpu.size())));
        }
        lastCpu = cpu;
        lastWall = now;
        return idle;
    }
}
