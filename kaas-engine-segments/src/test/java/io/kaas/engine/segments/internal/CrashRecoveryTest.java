package io.kaas.engine.segments.internal;

import static io.kaas.engine.segments.internal.LogFixture.append;
import static io.kaas.engine.segments.internal.LogFixture.baseOffsets;
import static io.kaas.engine.segments.internal.LogFixture.bytes;
import static io.kaas.engine.segments.internal.TestBatches.batch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.OutOfOrderSequenceException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Clean restarts scan nothing; crashes scan only past the recovery checkpoint; producer state survives both. */
class CrashRecoveryTest {
    /** Checkpoint after every force; no periodic flush, so non-durable appends stay past the checkpoint. */
    static final Map<String, String> EAGER_CHECKPOINTS = Map.of("recovery.checkpoint.interval.ms", "0",
            "flush.interval.ms", "3600000");
    static final LogConfig NO_FLUSH = LogFixture.config(LogConfig.defaults().segmentBytes(), LogConfig.defaults().segmentMs(),
            -1, -1, Long.MAX_VALUE, false);

    @TempDir
    Path dataDir;
    final List<SegmentEngine> engines = new ArrayList<>();

    @AfterEach
    void closeEngines() {
        for (SegmentEngine e : engines) {
            try {
                e.close();
            } catch (IOException ignored) {
                // a crashed engine's files were already reopened by another
            }
        }
    }

    private SegmentPartitionLog open(LogConfig config) throws IOException {
        SegmentEngine engine = LogFixture.engine(dataDir, IoHooks.NONE, EAGER_CHECKPOINTS,
                Clock.fixed(Instant.ofEpochMilli(LogFixture.NOW), ZoneOffset.UTC));
        engines.add(engine);
        return LogFixture.open(engine, config);
    }

    /** "Crashes" an engine: its files stay as they are; it is only closed at the end of the test, harmlessly. */
    private SegmentEngine crash(SegmentEngine engine) {
        engines.remove(engine);
        return engine;
    }

    @Test
    void aCleanRestartScansNothingAndLeavesTheLogUntouched() throws IOException {
        SegmentPartitionLog log = open(LogFixture.config(3_000));
        for (int i = 0; i < 40; i++) {
            append(log, batch().records(2).valueSize(100).producer(5, 0, 2 * i).build(), i % 3 == 0);
        }
        engines.get(0).close();
        assertThat(partitionDir().resolve("clean-shutdown")).exists();
        Map<Path, byte[]> before = segmentFiles();

        SegmentPartitionLog reopened = open(LogFixture.config(3_000));

        LogRecovery.Result r = reopened.recovery();
        assertThat(r.cleanShutdown()).isTrue();
        assertThat(r.scannedBytes()).isZero();
        assertThat(r.rebuiltIndexes()).isZero();
        assertThat(r.replayedBatches()).isZero();
        assertThat(partitionDir().resolve("clean-shutdown")).doesNotExist();
        assertThat(segmentFiles()).containsOnlyKeys(before.keySet());
        before.forEach((p, b) -> assertThat(readAll(p)).as(p.toString()).isEqualTo(b));
        assertThat(reopened.offsets().highWatermark()).isEqualTo(80);
        assertThat(append(reopened, batch().records(2).producer(5, 0, 78).build(), true).baseOffset()).isEqualTo(78);
    }

    @Test
    void aCrashScansOnlyFromTheCheckpoint() throws Exception {
        SegmentEngine first = LogFixture.engine(dataDir, IoHooks.NONE, EAGER_CHECKPOINTS, Clock.systemUTC());
        SegmentPartitionLog log = LogFixture.open(first, NO_FLUSH);
        for (int i = 0; i < 10; i++) {
            append(log, batch().records(2).valueSize(50).build(), true);
        }
        awaitCheckpointAt(20);
        long checkpointed = Files.size(lastLogFile());
        long tail = 0;
        for (int i = 0; i < 5; i++) {
            ByteBuffer b = batch().records(2).valueSize(50).build();
            tail += b.remaining();
            append(log, b, false);
        }
        crash(first);

        SegmentPartitionLog reopened = open(NO_FLUSH);

        LogRecovery.Result r = reopened.recovery();
        assertThat(r.cleanShutdown()).isFalse();
        assertThat(r.scanFrom()).isEqualTo(checkpointed);
        assertThat(r.scannedBytes()).isEqualTo(tail);
        assertThat(r.truncatedBytes()).isZero();
        assertThat(reopened.offsets().highWatermark()).isEqualTo(30);
        assertThat(checkpoint().highWatermark()).isEqualTo(30); // recovery checkpoints what it validated and fsynced
    }

    @Test
    void aTornTailAfterTheCheckpointIsTruncatedBeforeAnyWrite() throws Exception {
        SegmentEngine first = LogFixture.engine(dataDir, IoHooks.NONE, EAGER_CHECKPOINTS, Clock.systemUTC());
        SegmentPartitionLog log = LogFixture.open(first, NO_FLUSH);
        for (int i = 0; i < 4; i++) {
            append(log, batch().records(2).valueSize(50).build(), true);
        }
        awaitCheckpointAt(8);
        long checkpointed = Files.size(lastLogFile());
        ByteBuffer b1 = batch().records(2).valueSize(50).build();
        int s1 = b1.remaining();
        append(log, b1, false);
        ByteBuffer b2 = batch().records(2).valueSize(50).build();
        int s2 = b2.remaining();
        append(log, b2, false);
        crash(first);
        try (FileChannel ch = FileChannel.open(lastLogFile(), StandardOpenOption.WRITE)) {
            ch.truncate(checkpointed + s1 + s2 / 2);
        }

        SegmentPartitionLog reopened = open(NO_FLUSH);

        assertThat(reopened.recovery().scanFrom()).isEqualTo(checkpointed);
        assertThat(reopened.recovery().truncatedBytes()).isEqualTo(s2 / 2);
        assertThat(Files.size(lastLogFile())).isEqualTo(checkpointed + s1);
        assertThat(reopened.offsets().highWatermark()).isEqualTo(10);
        assertThat(append(reopened, batch().build(), true).baseOffset()).isEqualTo(10);
        assertThat(baseOffsets(bytes(reopened.read(0, Integer.MAX_VALUE, Long.MAX_VALUE, false))))
                .containsExactly(0, 2, 4, 6, 8, 10);
    }

    @Test
    void aCheckpointThatDoesNotMatchTheFileFallsBackToAFullScan() throws Exception {
        SegmentPartitionLog log = open(LogConfig.defaults());
        for (int i = 0; i < 5; i++) {
            append(log, batch().records(2).valueSize(50).build(), true);
        }
        awaitCheckpointAt(10); // the committer's last checkpoint is written after the append completes
        crash(engines.get(0));
        Files.writeString(partitionDir().resolve("recovery-checkpoint.json"),
                new RecoveryCheckpoint(0, 77, 3, -1, -1).toJson(), StandardCharsets.UTF_8);

        SegmentPartitionLog reopened = open(LogConfig.defaults());

        assertThat(reopened.recovery().scanFrom()).isZero();
        assertThat(reopened.recovery().scannedBytes()).isEqualTo(Files.size(lastLogFile()));
        assertThat(reopened.offsets().highWatermark()).isEqualTo(10);
    }

    @Test
    void aRetriedDuplicateIsRecognisedAfterACrashEvenAfterRolls() throws IOException {
        int size = batch().records(2).producer(9, 1, 0).build().remaining();
        LogConfig oneBatchPerSegment = LogFixture.config(size);
        SegmentPartitionLog log = open(oneBatchPerSegment);
        for (int i = 0; i < 4; i++) {
            append(log, batch().records(2).producer(9, 1, 2 * i).build(), true);
        }
        assertThat(logFiles()).hasSize(4);
        crash(engines.get(0));

        SegmentPartitionLog reopened = open(oneBatchPerSegment);

        // sequence 0 lives in the first segment: only the snapshot written at roll remembers it
        assertThat(append(reopened, batch().records(2).producer(9, 1, 0).build(), true).baseOffset()).isEqualTo(0);
        assertThat(append(reopened, batch().records(2).producer(9, 1, 4).build(), true).baseOffset()).isEqualTo(4);
        assertThat(reopened.offsets().highWatermark()).isEqualTo(8);
        assertThat(reopened.recovery().replayedBatches()).isEqualTo(1); // only the active segment's batch
        assertThatOutOfOrder(reopened, 7);
    }

    @Test
    void aRetriedDuplicateIsRecognisedAfterACleanRestartWithoutReplay() throws IOException {
        SegmentPartitionLog log = open(LogFixture.config(500));
        for (int i = 0; i < 6; i++) {
            append(log, batch().records(2).valueSize(100).producer(3, 2, 2 * i).build(), true);
        }
        engines.get(0).close();

        SegmentPartitionLog reopened = open(LogFixture.config(500));

        assertThat(reopened.recovery().replayedBatches()).isZero();
        assertThat(append(reopened, batch().records(2).valueSize(100).producer(3, 2, 4).build(), true).baseOffset())
                .isEqualTo(4);
        assertThat(reopened.offsets().highWatermark()).isEqualTo(12);
    }

    @Test
    void aCorruptProducerSnapshotIsRebuiltFromTheWholeLog() throws IOException {
        SegmentPartitionLog log = open(LogFixture.config(500));
        for (int i = 0; i < 6; i++) {
            append(log, batch().records(2).valueSize(100).producer(3, 2, 2 * i).build(), true);
        }
        engines.get(0).close();
        Path snapshot = partitionDir().resolve("producer-state.snapshot");
        byte[] data = Files.readAllBytes(snapshot);
        data[10] ^= 0x55;
        Files.write(snapshot, data);

        SegmentPartitionLog reopened = open(LogFixture.config(500));

        assertThat(reopened.recovery().replayedBatches()).isEqualTo(6);
        assertThat(append(reopened, batch().records(2).valueSize(100).producer(3, 2, 6).build(), true).baseOffset())
                .isEqualTo(6);
    }

    @Test
    void aMissingTimeIndexOfAClosedSegmentIsRebuilt() throws IOException {
        SegmentPartitionLog log = open(LogFixture.config(500));
        for (int i = 0; i < 6; i++) {
            append(log, batch().timestamps(1_000 + 100L * i, 0, 5).valueSize(100).build(), true);
        }
        engines.get(0).close();
        Path firstTimeIndex = partitionDir().resolve("00000000-00000000000000000000.timeindex");
        Files.delete(firstTimeIndex);

        SegmentPartitionLog reopened = open(LogFixture.config(500));

        assertThat(reopened.recovery().rebuiltIndexes()).isEqualTo(1);
        assertThat(firstTimeIndex).exists();
        assertThat(reopened.offsetForTimestamp(1_003).orElseThrow().offset()).isEqualTo(1);
        assertThat(reopened.maxTimestamp().orElseThrow().offset()).isEqualTo(11);
    }

    private void assertThatOutOfOrder(SegmentPartitionLog log, int sequence) {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> append(log, batch().producer(9, 1, sequence).build(), true))
                .hasCauseInstanceOf(OutOfOrderSequenceException.class);
    }

    private void awaitCheckpointAt(long highWatermark) {
        await("a checkpoint at " + highWatermark).atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(2))
                .untilAsserted(() -> assertThat(checkpoint()).as("the recovery checkpoint").isNotNull()
                        .extracting(RecoveryCheckpoint::highWatermark).isEqualTo(highWatermark));
    }

    private RecoveryCheckpoint checkpoint() {
        try {
            return RecoveryCheckpoint.fromJson(Files.readString(partitionDir().resolve("recovery-checkpoint.json")));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private Path partitionDir() {
        return dataDir.resolve("orders").resolve("0");
    }

    private List<Path> logFiles() throws IOException {
        try (Stream<Path> s = Files.list(partitionDir())) {
            return s.filter(p -> p.toString().endsWith(".log")).sorted().toList();
        }
    }

    private Path lastLogFile() throws IOException {
        List<Path> files = logFiles();
        return files.get(files.size() - 1);
    }

    private Map<Path, byte[]> segmentFiles() throws IOException {
        Map<Path, byte[]> out = new java.util.HashMap<>();
        try (Stream<Path> s = Files.list(partitionDir())) {
            for (Path p : (Iterable<Path>) s::iterator) {
                String n = p.toString();
                if (n.endsWith(".log") || n.endsWith(".index") || n.endsWith(".timeindex")) {
                    out.put(p, readAll(p));
                }
            }
        }
        return out;
    }

    private static byte[] readAll(Path p) {
        try {
            return Files.readAllBytes(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
