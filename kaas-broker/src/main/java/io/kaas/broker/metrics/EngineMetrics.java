package io.kaas.broker.metrics;

import io.kaas.api.storage.EngineStats;
import io.kaas.api.storage.PartitionKey;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The storage engine's measurements as kaas's own series: {@code kaas_log_flush_seconds} (histogram of fsync times),
 * {@code kaas_log_group_commit_batches} (batches per group-commit fsync), {@code kaas_log_fsync_stalls_total},
 * {@code kaas_log_recovery_seconds{topic,partition}} and the byte-opacity tripwires
 * {@code kaas_batches_decompressed_total{reason}} / {@code kaas_batches_rewritten_total{reason}}. Every meter is made
 * once (per reason on first use); nothing here takes a lock on the append path.
 */
public final class EngineMetrics implements EngineStats {

    private final MeterRegistry registry;
    private final Timer flush;
    private final DistributionSummary groupCommit;
    private final Counter stalls;
    private final MultiGauge recovery;
    private final Map<PartitionKey, Double> recoverySeconds = new ConcurrentHashMap<>();
    private final Map<String, Counter> decompressed = new ConcurrentHashMap<>();
    private final Map<String, Counter> rewritten = new ConcurrentHashMap<>();

    public EngineMetrics(BrokerMetrics metrics) {
        this.registry = metrics.registry();
        this.flush = Timer.builder("kaas.log.flush").description("fsync time of a partition's log")
            .publishPercentileHistogram().minimumExpectedValue(Duration.ofNanos(50_000))
            .maximumExpectedValue(Duration.ofSeconds(30)).register(registry);
        this.groupCommit = DistributionSummary.builder("kaas.log.group.commit.batches")
            .description("Appended batches one group-commit fsync made durable").publishPercentiles(0.5, 0.99)
            .register(registry);
        this.stalls = Counter.builder("kaas.log.fsync.stalls")
            .description("fsyncs the watchdog found overdue (fsync.timeout.ms); the partition goes offline")
            .register(registry);
        this.recovery = MultiGauge.builder("kaas.log.recovery.seconds")
            .description("Time the partition took to open (recover) at its last open").register(registry);
        metrics.beforeScrape(this::refreshRecovery);
        for (String reason : List.of(COMPACTED_KEY_VALIDATION)) {
            counter(decompressed, "kaas.batches.decompressed", reason);
        }
        for (String reason : List.of(LOG_APPEND_TIME)) {
            counter(rewritten, "kaas.batches.rewritten", reason);
        }
    }

    private Counter counter(Map<String, Counter> counters, String name, String reason) {
        Counter c = counters.get(reason);
        return c != null ? c : counters.computeIfAbsent(reason, r -> Counter.builder(name)
            .description("Record batches the broker could not keep opaque (byte-opacity tripwire)")
            .tag("reason", r).register(registry));
    }

    @Override
    public void flushed(PartitionKey partition, long nanos, int batches) {
        flush.record(nanos, TimeUnit.NANOSECONDS);
        if (batches > 0) {
            groupCommit.record(batches);
        }
    }

    @Override
    public void fsyncStalled(PartitionKey partition, long nanos) {
        stalls.increment();
    }

    @Override
    public void recovered(PartitionKey partition, long nanos, long scannedBytes) {
        recoverySeconds.put(partition, nanos / 1e9);
    }

    @Override
    public void batchesDecompressed(String reason, int batches) {
        counter(decompressed, "kaas.batches.decompressed", reason).increment(batches);
    }

    @Override
    public void batchesRewritten(String reason, int batches) {
        counter(rewritten, "kaas.batches.rewritten", reason).increment(batches);
    }

    private void refreshRecovery() {
        recovery.register(recoverySeconds.entrySet().stream()
            .<MultiGauge.Row<?>>map(e -> MultiGauge.Row.of(Tags.of("topic", e.getKey().topic(),
                "partition", Integer.toString(e.getKey().partition())), e.getValue()))
            .toList(), true);
    }
}
