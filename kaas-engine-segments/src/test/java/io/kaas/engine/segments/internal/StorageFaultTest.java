package io.kaas.engine.segments.internal;

import static io.kaas.engine.segments.internal.LogFixture.append;
import static io.kaas.engine.segments.internal.LogFixture.baseOffsets;
import static io.kaas.engine.segments.internal.LogFixture.bytes;
import static io.kaas.engine.segments.internal.TestBatches.batch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.record.ProducedBatches;
import io.kaas.api.storage.AppendResult;
import io.kaas.api.storage.KafkaStorageException;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.PartitionOfflineException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A full disk is retriable and leaves nothing behind; a hung fsync takes the partition offline for good. */
class StorageFaultTest {
    @TempDir
    Path dataDir;
    SegmentEngine engine;

    @AfterEach
    void closeEngine() {
        if (engine != null) {
            try {
                engine.close();
            } catch (IOException ignored) {
                // offline on purpose
            }
        }
    }

    /** Refuses writes to files whose name ends with {@code suffix}, after {@code okWrites} more succeed. */
    static final class FullDisk implements IoHooks {
        volatile String suffix;
        final AtomicInteger okWrites = new AtomicInteger();

        @Override
        public void beforeWrite(Path file) throws IOException {
            String s = suffix;
            if (s != null && file.toString().endsWith(s) && okWrites.getAndDecrement() <= 0) {
                throw new IOException("No space left on device");
            }
        }
    }

    @Test
    void aFullDiskRefusesTheWholeRequestRetriablyAndWritesResumeOnceSpaceIsFreed() throws IOException {
        FullDisk disk = new FullDisk();
        engine = LogFixture.engine(dataDir, disk);
        SegmentPartitionLog log = LogFixture.open(engine, LogConfig.defaults());
        append(log, batch().records(3).producer(4, 0, 0).build(), true);
        Path file = dataDir.resolve("orders/0/00000000-00000000000000000000.log");
        long size = Files.size(file);

        disk.suffix = ".log";
        disk.okWrites.set(1); // the first batch of the request is written, the second is refused
        assertThatThrownBy(() -> append(log, TestBatches.concat(batch().records(2).producer(4, 0, 3).build(),
                batch().records(2).producer(4, 0, 5).build()), true)).hasCauseInstanceOf(KafkaStorageException.class);
        assertThat(Files.size(file)).isEqualTo(size);
        assertThat(log.offsets().highWatermark()).isEqualTo(3);

        disk.suffix = null;
        AppendResult retried = append(log, TestBatches.concat(batch().records(2).producer(4, 0, 3).build(),
                batch().records(2).producer(4, 0, 5).build()), true);
        assertThat(retried.baseOffset()).isEqualTo(3);
        assertThat(baseOffsets(bytes(log.read(0, Integer.MAX_VALUE, Long.MAX_VALUE, false)))).containsExactly(0, 3, 5);
    }

    @Test
    void aFullDiskOnTheIndexUndoesTheBatchAndItsIndexEntries() throws IOException {
        FullDisk disk = new FullDisk();
        engine = LogFixture.engine(dataDir, disk);
        SegmentPartitionLog log = LogFixture.open(engine, LogConfig.defaults());
        for (int i = 0; i < 2; i++) {
            append(log, batch().valueSize(3_000).build(), true); // the next batch crosses the 4 KiB index interval
        }
        Path index = dataDir.resolve("orders/0/00000000-00000000000000000000.index");
        long indexSize = Files.size(index);
        long logSize = Files.size(dataDir.resolve("orders/0/00000000-00000000000000000000.log"));

        disk.suffix = ".index";
        assertThatThrownBy(() -> append(log, batch().valueSize(3_000).build(), true))
                .hasCauseInstanceOf(KafkaStorageException.class).cause().isNotInstanceOf(PartitionOfflineException.class);
        assertThat(Files.size(index)).isEqualTo(indexSize);
        assertThat(Files.size(dataDir.resolve("orders/0/00000000-00000000000000000000.log"))).isEqualTo(logSize);
        assertThat(log.offsets().highWatermark()).isEqualTo(2);

        disk.suffix = null;
        assertThat(append(log, batch().valueSize(3_000).build(), true).baseOffset()).isEqualTo(2);
        assertThat(Files.size(index)).isEqualTo(indexSize + SegmentIndex.ENTRY_SIZE);
        assertThat(baseOffsets(bytes(log.read(2, Integer.MAX_VALUE, Long.MAX_VALUE, false)))).containsExactly(2);
        engine.close();
        engine = LogFixture.engine(dataDir);
        SegmentPartitionLog reopened = LogFixture.open(engine, LogConfig.defaults());
        assertThat(reopened.recovery().rebuiltIndexes()).isZero();
        assertThat(baseOffsets(bytes(reopened.read(0, Integer.MAX_VALUE, Long.MAX_VALUE, false)))).containsExactly(0, 1, 2);
    }

    @Test
    void aFullDiskAtRollIsRetriable() throws IOException {
        engine = LogFixture.engine(dataDir);
        int size = batch().build().remaining();
        SegmentPartitionLog log = LogFixture.open(engine, LogFixture.config(size));
        append(log, batch().build(), true);
        Path dir = dataDir.resolve("orders/0");
        // a directory where the next segment's index must go: creating the segment fails as on a full disk
        Files.createDirectory(dir.resolve("00000000-00000000000000000001.index"));

        assertThatThrownBy(() -> append(log, batch().build(), true)).hasCauseInstanceOf(KafkaStorageException.class);
        assertThat(log.offsets().highWatermark()).isEqualTo(1);

        Files.delete(dir.resolve("00000000-00000000000000000001.index"));
        assertThat(append(log, batch().build(), true).baseOffset()).isEqualTo(1);
    }

    @Test
    void anFsyncThatHangsPastTheTimeoutTakesThePartitionOfflineForGood() throws Exception {
        AtomicBoolean hang = new AtomicBoolean();
        CompletableFuture<Void> release = new CompletableFuture<>();
        IoHooks slow = new IoHooks() {
            @Override
            public void beforeForce(Path file) {
                if (hang.get()) {
                    release.join();
                }
            }
        };
        engine = LogFixture.engine(dataDir, slow, Map.of("fsync.timeout.ms", "200"), Clock.systemUTC());
        SegmentPartitionLog log = LogFixture.open(engine, LogConfig.defaults());
        append(log, batch().build(), true);

        hang.set(true);
        long start = System.nanoTime();
        CompletableFuture<AppendResult> stuck = log.append(ProducedBatches.validate(batch().build()), true);
        assertThatThrownBy(() -> stuck.get(5, TimeUnit.SECONDS)).hasCauseInstanceOf(KafkaStorageException.class);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(3_000);

        hang.set(false);
        release.complete(null); // the fsync finally returns: too late, nothing it covered is acknowledged
        // Not a wait for a condition: the late fsync gets time to return, which must change nothing.
        Thread.sleep(50);
        assertThatThrownBy(() -> log.append(ProducedBatches.validate(batch().build()), true)).isInstanceOf(PartitionOfflineException.class);
        assertThatThrownBy(() -> log.append(ProducedBatches.validate(batch().build()), false)).isInstanceOf(PartitionOfflineException.class);
        assertThat(stuck).isCompletedExceptionally();
    }
}
