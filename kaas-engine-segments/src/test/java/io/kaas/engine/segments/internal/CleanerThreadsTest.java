package io.kaas.engine.segments.internal;

import static io.kaas.engine.segments.internal.KeyedBatches.batch;
import static io.kaas.engine.segments.internal.KeyedBatches.kv;
import static io.kaas.engine.segments.internal.LogFixture.append;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.plugin.PluginConfigException;
import io.kaas.api.storage.LogConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cleaner threads: cleaner.threads, cleaner.backoff.ms and cleaner.io.max.bytes.per.second, static and changed. */
class CleanerThreadsTest {
    @TempDir
    Path dataDir;
    SegmentEngine engine;
    final LogFixture.MutableClock clock = new LogFixture.MutableClock(LogFixture.NOW);

    @AfterEach
    void closeEngine() throws IOException {
        if (engine != null) {
            engine.close();
        }
    }

    private SegmentPartitionLog open(Map<String, String> settings) throws IOException {
        engine = LogFixture.engine(dataDir, IoHooks.NONE, settings, clock);
        return LogFixture.open(engine, CompactionTest.compact(CompactionTest.HOUR, 0, 0));
    }

    /** Five rounds over keys a, b, c (one batch, one segment each) and a tail in the active segment. */
    private void writeDirty(SegmentPartitionLog log, int valueBytes) {
        String pad = "x".repeat(valueBytes);
        for (int round = 0; round < 5; round++) {
            for (String k : List.of("a", "b", "c")) {
                append(log, batch(clock.millis(), 0, kv(k, k + round + pad)), false);
            }
        }
        append(log, batch(clock.millis(), 0, kv("tail", "t")), false);
    }

    private static int records(SegmentPartitionLog log) throws IOException {
        return KeyedBatches.decode(LogFixture.bytes(log.read(log.offsets().logStartOffset(), Integer.MAX_VALUE,
                Long.MAX_VALUE, true))).size();
    }

    /** This engine's cleaner threads that are alive (other tests' engines may run theirs in this JVM). */
    private List<String> cleanerThreadNames() {
        return engine.cleanerThreadNames();
    }

    @Test
    void aCleanerThreadCompactsByItselfAfterItsBackoff() throws IOException {
        SegmentPartitionLog log = open(Map.of(CleanerSettings.BACKOFF_MS, "200"));
        writeDirty(log, 10); // 16 records, 4 of them latest

        await("the cleaner thread's pass").atMost(Duration.ofSeconds(20)).until(() -> records(log) == 4);
    }

    @Test
    void nothingIsCompactedBeforeTheBackoffEnds() throws Exception {
        SegmentPartitionLog log = open(Map.of(CleanerSettings.BACKOFF_MS, "60000"));
        writeDirty(log, 10);
        Thread.sleep(1500);
        assertThat(records(log)).as("no pass before cleaner.backoff.ms").isEqualTo(16);

        // a shorter backoff applies to the sleeping thread at once
        engine.reconfigure(PluginConfig.of(Map.of(CleanerSettings.BACKOFF_MS, "100")));
        await("the pass after the new backoff").atMost(Duration.ofSeconds(20)).until(() -> records(log) == 4);
    }

    @Test
    void theThreadCountFollowsAReconfigureUpAndDown() throws IOException {
        open(Map.of(CleanerSettings.THREADS, "2", CleanerSettings.BACKOFF_MS, "60000"));
        assertThat(engine.cleanerSettings().threads()).isEqualTo(2);
        await().atMost(Duration.ofSeconds(10)).until(() -> cleanerThreadNames().equals(
                List.of("kaas-segments-cleaner-0", "kaas-segments-cleaner-1")));

        engine.reconfigure(PluginConfig.of(Map.of(CleanerSettings.THREADS, "4", CleanerSettings.BACKOFF_MS, "60000")));
        await().atMost(Duration.ofSeconds(10)).until(() -> cleanerThreadNames().size() == 4);
        assertThat(cleanerThreadNames()).containsExactly("kaas-segments-cleaner-0", "kaas-segments-cleaner-1",
                "kaas-segments-cleaner-2", "kaas-segments-cleaner-3");

        // sleeping threads above the new count wake and stop
        engine.reconfigure(PluginConfig.of(Map.of(CleanerSettings.THREADS, "1", CleanerSettings.BACKOFF_MS, "60000")));
        await().atMost(Duration.ofSeconds(10)).until(() -> cleanerThreadNames().size() == 1);
        assertThat(engine.cleanerSettings().threads()).isEqualTo(1);

        engine.close();
        assertThat(cleanerThreadNames()).as("close stops them").isEmpty();
        engine = null;
    }

    @Test
    void unusableSettingsAreRefusedAndChangeNothing() throws IOException {
        open(Map.of(CleanerSettings.THREADS, "2", CleanerSettings.BACKOFF_MS, "60000"));
        CleanerSettings before = engine.cleanerSettings();

        assertThatThrownBy(() -> engine.reconfigure(PluginConfig.of(Map.of(CleanerSettings.THREADS, "-1"))))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining(CleanerSettings.THREADS);
        assertThatThrownBy(() -> engine.reconfigure(PluginConfig.of(Map.of(CleanerSettings.IO_MAX_BYTES_PER_SECOND, "0"))))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("greater than 0");
        assertThatThrownBy(() -> engine.reconfigure(PluginConfig.of(Map.of(CleanerSettings.IO_MAX_BYTES_PER_SECOND,
                "fast")))).isInstanceOf(PluginConfigException.class).hasMessageContaining("fast");
        assertThatThrownBy(() -> engine.reconfigure(PluginConfig.of(Map.of(CleanerSettings.BACKOFF_MS, "-5"))))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining(CleanerSettings.BACKOFF_MS);

        assertThat(engine.cleanerSettings()).isEqualTo(before);
        assertThat(cleanerThreadNames()).hasSize(2);
    }

    @Test
    void theIoRateBoundsAPass() throws IOException {
        // no cleaner thread: the passes run here, one at a time, so their time can be measured
        SegmentPartitionLog log = open(Map.of(CleanerSettings.THREADS, "0"));
        writeDirty(log, 20_000); // 15 closed segments of about 20 kB: a pass reads about 300 kB twice, writes 60 kB
        engine.reconfigure(PluginConfig.of(Map.of(CleanerSettings.THREADS, "0",
                CleanerSettings.IO_MAX_BYTES_PER_SECOND, "200000")));
        long start = System.nanoTime();
        assertThat(engine.runCleanerPass()).isGreaterThan(0);
        long ms = (System.nanoTime() - start) / 1_000_000;
        // at least 600 kB at 200 kB/s is 3 s; allow for the throttle's first period and a loose margin
        assertThat(ms).as("the pass took %d ms", ms).isGreaterThanOrEqualTo(1_500);
        assertThat(records(log)).isEqualTo(4);
    }
}
