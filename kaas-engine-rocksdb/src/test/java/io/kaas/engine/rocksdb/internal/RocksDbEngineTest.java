package io.kaas.engine.rocksdb.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.record.ProducedBatches;
import io.kaas.api.storage.AppendResult;
import io.kaas.api.storage.InvalidConfigException;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.plugin.tck.TestBatches;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the TCK cannot see: group commit, flush.messages and native resources. */
class RocksDbEngineTest {
    @TempDir
    Path dir;

    private RocksDbEngine open() throws Exception {
        return RocksDbEngine.open(dir, RocksDbConfig.from(PluginConfig.empty()), Clock.systemUTC());
    }

    private static PartitionKey key(int partition) {
        return new PartitionKey("t", new UUID(1, 2), partition);
    }

    private static LogConfig flushMessages(long n) {
        LogConfig d = LogConfig.defaults();
        return new LogConfig(d.segmentBytes(), d.segmentMs(), d.retentionMs(), d.retentionBytes(), d.maxMessageBytes(),
                n, d.logAppendTime(), d.compact());
    }

    @Test
    void concurrentDurableAppendersShareWalSyncs() throws Exception {
        int threads = 8;
        int perThread = 50;
        try (RocksDbEngine engine = open()) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    PartitionLog log = engine.openPartition(key(t % 2), LogConfig.defaults());
                    done.add(pool.submit(() -> {
                        for (int i = 0; i < perThread; i++) {
                            log.append(ProducedBatches.validate(TestBatches.batch().build()), true).get(30, TimeUnit.SECONDS);
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(engine.walSyncs()).isPositive().isLessThan(threads * perThread);
        }
    }

    @Test
    void nonDurableAppendsSyncOnlyEveryFlushMessagesRecords() throws Exception {
        try (RocksDbEngine engine = open()) {
            PartitionLog never = engine.openPartition(key(0), flushMessages(Long.MAX_VALUE));
            for (int i = 0; i < 20; i++) {
                never.append(ProducedBatches.validate(TestBatches.batch().build()), false).get();
            }
            assertThat(engine.walSyncs()).isZero();

            PartitionLog every = engine.openPartition(key(1), flushMessages(1));
            every.append(ProducedBatches.validate(TestBatches.batch().build()), false).get();
            await("a WAL sync after flush.messages=1").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5))
                    .until(() -> engine.walSyncs() != 0);
            assertThat(engine.walSyncs()).isPositive();
        }
    }

    @Test
    void retentionPassDropsLeadingBatchesOlderThanRetentionMs() throws Exception {
        LogConfig d = LogConfig.defaults();
        LogConfig oneMinute = new LogConfig(d.segmentBytes(), d.segmentMs(), 60_000, -1, d.maxMessageBytes(),
                d.flushMessages(), false, false);
        long now = 10_000_000L;
        try (RocksDbEngine engine = RocksDbEngine.open(dir, RocksDbConfig.from(PluginConfig.empty()),
                Clock.fixed(java.time.Instant.ofEpochMilli(now), java.time.ZoneOffset.UTC))) {
            PartitionLog log = engine.openPartition(key(0), oneMinute);
            log.append(ProducedBatches.validate(TestBatches.batch().records(2).timestamps(now - 120_000, 0, 1).build()), false).get();
            log.append(ProducedBatches.validate(TestBatches.batch().records(2).timestamps(now - 90_000, 0, 1).build()), false).get();
            log.append(ProducedBatches.validate(TestBatches.batch().records(2).timestamps(now - 30_000, 0, 1).build()), false).get();
            log.append(ProducedBatches.validate(TestBatches.batch().records(2).timestamps(now - 200_000, 0, 1).build()), false).get();

            engine.retentionPass();

            assertThat(log.offsets().logStartOffset()).as("stops at the first batch not expired").isEqualTo(4);
            assertThat(log.offsets().highWatermark()).isEqualTo(8);
        }
    }

    @Test
    void refusesCompactionAndNeverDeletesACompactTopicByRetention() throws Exception {
        long now = 10_000_000L;
        LogConfig d = LogConfig.defaults();
        // retention.ms and retention.bytes that would delete everything, were the policy delete
        LogConfig compactOnly = new LogConfig(d.segmentBytes(), d.segmentMs(), 1, 0, d.maxMessageBytes(),
                d.flushMessages(), false, true);
        LogConfig compactAndDelete = compactOnly.withCleanup(true, true, d.deleteRetentionMs(), 0, Long.MAX_VALUE, 0.5);
        try (RocksDbEngine engine = RocksDbEngine.open(dir, RocksDbConfig.from(PluginConfig.empty()),
                Clock.fixed(java.time.Instant.ofEpochMilli(now), java.time.ZoneOffset.UTC))) {
            assertThatThrownBy(() -> engine.checkConfig(compactOnly)).isInstanceOf(InvalidConfigException.class)
                    .hasMessageContaining("does not compact").hasMessageContaining("cleanup.policy=compact");
            assertThatThrownBy(() -> engine.checkConfig(compactAndDelete)).isInstanceOf(InvalidConfigException.class);
            engine.checkConfig(d);

            // a compact topic recorded before (or by another engine) still opens and keeps every batch
            PartitionLog log = engine.openPartition(key(0), compactOnly);
            for (int i = 0; i < 3; i++) {
                log.append(ProducedBatches.validate(TestBatches.batch().records(2).timestamps(now - 120_000, 0, 1).build()),
                        false).get();
            }
            engine.retentionPass();
            assertThat(log.offsets().logStartOffset()).as("compact-only: retention deletes nothing").isZero();
            assertThat(log.read(0, 1 << 20, Long.MAX_VALUE, true).slices()).hasSize(3);

            log.updateConfig(compactOnly.withCleanup(false, true, d.deleteRetentionMs(), 0, Long.MAX_VALUE, 0.5));
            engine.retentionPass();
            assertThat(log.offsets().logStartOffset()).as("delete: the same settings expire it all").isEqualTo(6);
        }
    }

    @Test
    void retentionBytesKeepsAtLeastTheLimitAndCountsStoredBatchesExactlyAcrossRestarts() throws Exception {
        int batchSize = TestBatches.batch().records(2).build().remaining();
        LogConfig d = LogConfig.defaults();
        LogConfig threeBatches = new LogConfig(d.segmentBytes(), d.segmentMs(), -1, 3L * batchSize + 1,
                d.maxMessageBytes(), d.flushMessages(), false, false);
        try (RocksDbEngine engine = open()) {
            RocksPartitionLog log = (RocksPartitionLog) engine.openPartition(key(0), threeBatches);
            for (int i = 0; i < 10; i++) {
                log.append(ProducedBatches.validate(TestBatches.batch().records(2).build()), false).get();
            }
            assertThat(log.storedBytes()).isEqualTo(10L * batchSize);

            engine.retentionPass();

            // Kafka's rule: drop a leading unit only while what stays is at least retention.bytes.
            assertThat(log.offsets().logStartOffset()).isEqualTo(12);
            assertThat(log.storedBytes()).isEqualTo(4L * batchSize);
            log.deleteRecordsBefore(15).get(); // cuts through the batch at 14..15: it stays stored
            assertThat(log.storedBytes()).isEqualTo(3L * batchSize);
        }
        try (RocksDbEngine engine = open()) {
            RocksPartitionLog log = (RocksPartitionLog) engine.openPartition(key(0), threeBatches);
            assertThat(log.storedBytes()).as("kept in meta").isEqualTo(3L * batchSize);
            log.updateConfig(new LogConfig(d.segmentBytes(), d.segmentMs(), -1, 0, d.maxMessageBytes(),
                    d.flushMessages(), false, false));
            engine.retentionPass();
            assertThat(log.offsets().logStartOffset()).isEqualTo(20);
            assertThat(log.storedBytes()).isZero();
            assertThat(log.read(20, 1 << 20, Long.MAX_VALUE, true).slices()).isEmpty();
        }
    }

    @Test
    void retentionPassAppliesWhicheverOfTimeAndSizeReachesFurther() throws Exception {
        long now = 10_000_000L;
        int batchSize = TestBatches.batch().records(2).build().remaining();
        LogConfig d = LogConfig.defaults();
        LogConfig both = new LogConfig(d.segmentBytes(), d.segmentMs(), 60_000, 2L * batchSize, d.maxMessageBytes(),
                d.flushMessages(), false, false);
        try (RocksDbEngine engine = RocksDbEngine.open(dir, RocksDbConfig.from(PluginConfig.empty()),
                Clock.fixed(java.time.Instant.ofEpochMilli(now), java.time.ZoneOffset.UTC))) {
            RocksPartitionLog log = (RocksPartitionLog) engine.openPartition(key(0), both);
            log.append(ProducedBatches.validate(TestBatches.batch().records(2).timestamps(now - 120_000, 0, 1).build()), false).get();
            for (int i = 0; i < 4; i++) {
                log.append(ProducedBatches.validate(TestBatches.batch().records(2).timestamps(now - 1_000, 0, 1).build()), false).get();
            }
            engine.retentionPass();
            assertThat(log.offsets().logStartOffset()).as("size reaches past time").isEqualTo(6);

            log.updateConfig(new LogConfig(d.segmentBytes(), d.segmentMs(), 500, -1, d.maxMessageBytes(),
                    d.flushMessages(), false, false));
            engine.retentionPass();
            assertThat(log.offsets().logStartOffset()).as("time reaches past size").isEqualTo(10);
            assertThat(log.storedBytes()).isZero();
        }
    }

    @Test
    void closeCompletesPendingDurableAppendsAndFreesNativeObjects() throws Exception {
        RocksDbEngine engine = open();
        PartitionLog log = engine.openPartition(key(0), LogConfig.defaults());
        List<CompletableFuture<AppendResult>> pending = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            pending.add(log.append(ProducedBatches.validate(TestBatches.batch().build()), true));
        }
        engine.close();

        for (CompletableFuture<AppendResult> f : pending) {
            assertThat(f).isCompleted();
            assertThat(f.get().baseOffset()).isBetween(0L, 99L);
        }
        assertThat(engine.nativesReleased()).isTrue();
        try (RocksDbEngine again = open()) {
            assertThat(again.openPartition(key(0), LogConfig.defaults()).offsets().highWatermark()).isEqualTo(100);
        }
    }
}
