package io.kaas.engine.segments.internal;

import static io.kaas.engine.segments.internal.LogFixture.append;
import static io.kaas.engine.segments.internal.LogFixture.baseOffsets;
import static io.kaas.engine.segments.internal.LogFixture.bytes;
import static io.kaas.engine.segments.internal.TestBatches.batch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kaas.api.record.ProducedBatches;
import io.kaas.api.storage.AppendResult;
import io.kaas.api.storage.KafkaStorageException;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.PartitionOfflineException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GroupCommitTest {
    @TempDir
    Path dataDir;
    SegmentEngine engine;

    @AfterEach
    void closeEngine() throws IOException {
        if (engine != null) {
            try {
                engine.close();
            } catch (IOException ignored) {
                // a test that failed an fsync on purpose
            }
        }
    }

    /** Simulates a disk whose fsync takes a millisecond, and optionally fails. */
    static final class SlowDisk implements IoHooks {
        final AtomicInteger forces = new AtomicInteger();
        final AtomicBoolean failForce = new AtomicBoolean();
        final AtomicBoolean failWrite = new AtomicBoolean();

        @Override
        public void beforeWrite(Path file) throws IOException {
            if (failWrite.get()) {
                throw new IOException("simulated: no space left on device");
            }
        }

        @Override
        public void beforeForce(Path file) throws IOException {
            forces.incrementAndGet();
            try {
                Thread.sleep(1); // not a wait for a condition: the simulated fsync takes this long
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (failForce.get()) {
                throw new IOException("simulated: fsync EIO");
            }
        }
    }

    @Test
    void concurrentDurableAppendsShareFsyncsAndGetContiguousOffsets() throws Exception {
        SlowDisk disk = new SlowDisk();
        engine = LogFixture.engine(dataDir, disk);
        SegmentPartitionLog log = LogFixture.open(engine, LogConfig.defaults());
        int threads = 8;
        int perThread = 200;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        ConcurrentLinkedQueue<AppendResult> results = new ConcurrentLinkedQueue<>();
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            done.add(pool.submit(() -> {
                for (int i = 0; i < perThread; i++) {
                    results.add(append(log, batch().records(2).build(), true));
                }
            }));
        }
        for (Future<?> f : done) {
            f.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();

        int appends = threads * perThread;
        assertThat(results).hasSize(appends);
        assertThat(results.stream().mapToLong(AppendResult::baseOffset).sorted().toArray())
                .isEqualTo(java.util.stream.LongStream.range(0, appends).map(i -> 2 * i).toArray());
        assertThat(log.offsets().highWatermark()).isEqualTo(2L * appends);
        assertThat(log.fsyncCount()).isPositive().isLessThan(appends / 3);
        assertThat(disk.forces.get()).isEqualTo((int) log.fsyncCount());
    }

    @Test
    void nonDurableAppendsScheduleAnFsyncAfterFlushMessages() throws Exception {
        SlowDisk disk = new SlowDisk();
        engine = LogFixture.engine(dataDir, disk);
        LogConfig d = LogConfig.defaults();
        SegmentPartitionLog log = LogFixture.open(engine, new LogConfig(d.segmentBytes(), d.segmentMs(), d.retentionMs(),
                d.retentionBytes(), d.maxMessageBytes(), 10, false, false));

        append(log, batch().records(4).build(), false);
        append(log, batch().records(4).build(), false);
        await("no fsync before flush.messages").during(Duration.ofMillis(50)).atMost(Duration.ofSeconds(5))
                .until(() -> log.fsyncCount() == 0);
        assertThat(log.fsyncCount()).isZero();

        append(log, batch().records(4).build(), false);
        await("the fsync after flush.messages").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5))
                .until(() -> log.fsyncCount() != 0);
        assertThat(log.fsyncCount()).isEqualTo(1);
    }

    @Test
    void aFailedFsyncFailsTheWaitersAndTakesThePartitionOfflineForGood() throws IOException {
        SlowDisk disk = new SlowDisk();
        engine = LogFixture.engine(dataDir, disk);
        SegmentPartitionLog log = LogFixture.open(engine, LogConfig.defaults());
        append(log, batch().build(), true);

        disk.failForce.set(true);
        CompletableFuture<AppendResult> failed = log.append(ProducedBatches.validate(batch().build()), true);
        assertThatThrownBy(() -> LogFixture.join(failed)).hasCauseInstanceOf(KafkaStorageException.class);

        disk.failForce.set(false);
        assertThatThrownBy(() -> log.append(ProducedBatches.validate(batch().build()), true)).isInstanceOf(PartitionOfflineException.class);
        assertThatThrownBy(() -> log.append(ProducedBatches.validate(batch().build()), false)).isInstanceOf(PartitionOfflineException.class);
        assertThatThrownBy(() -> log.read(0, 100, Long.MAX_VALUE, true)).isInstanceOf(PartitionOfflineException.class);
    }

    @Test
    void aFailedWriteLeavesNoPartialBatchAndConsumesNoOffset() throws IOException {
        SlowDisk disk = new SlowDisk();
        engine = LogFixture.engine(dataDir, disk);
        SegmentPartitionLog log = LogFixture.open(engine, LogConfig.defaults());
        append(log, batch().records(3).build(), true);
        Path file = dataDir.resolve("orders/0/00000000-00000000000000000000.log");
        long size = Files.size(file);

        disk.failWrite.set(true);
        assertThatThrownBy(() -> append(log, batch().records(2).build(), true))
                .hasCauseInstanceOf(KafkaStorageException.class);
        assertThat(Files.size(file)).isEqualTo(size);
        assertThat(log.offsets().highWatermark()).isEqualTo(3);

        disk.failWrite.set(false);
        assertThat(append(log, batch().records(2).build(), true).baseOffset()).isEqualTo(3);
        assertThat(baseOffsets(bytes(log.read(0, Integer.MAX_VALUE, Long.MAX_VALUE, false)))).containsExactly(0, 3);
    }
}
