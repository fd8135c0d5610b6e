package io.kaas.engine.segments.internal;

import static io.kaas.engine.segments.internal.LogFixture.append;
import static io.kaas.engine.segments.internal.LogFixture.baseOffsets;
import static io.kaas.engine.segments.internal.LogFixture.bytes;
import static io.kaas.engine.segments.internal.LogFixture.join;
import static io.kaas.engine.segments.internal.TestBatches.batch;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.storage.LogConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RetentionTest {
    static final long HOUR = 3_600_000L;
    static final long DAY = 24 * HOUR;

    @TempDir
    Path dataDir;
    SegmentEngine engine;
    final LogFixture.MutableClock clock = new LogFixture.MutableClock(LogFixture.NOW);
    int batchSize;

    @BeforeEach
    void openEngine() throws IOException {
        engine = LogFixture.engine(dataDir, IoHooks.NONE, Map.of(), clock);
        batchSize = batch().valueSize(100).build().remaining();
    }

    @AfterEach
    void closeEngine() throws IOException {
        engine.close();
    }

    /** Two batches per segment. */
    private LogConfig config(long segmentMs, long retentionMs, long retentionBytes) {
        return LogFixture.config(2L * batchSize, segmentMs, retentionMs, retentionBytes, 1, false);
    }

    /** Appends one single-record batch stamped {@code ageMs} before now. */
    private void appendAged(SegmentPartitionLog log, long ageMs) {
        append(log, batch().timestamps(clock.millis() - ageMs, 0).valueSize(100).build(), false);
    }

    @Test
    void retentionMsDeletesClosedSegmentsWhoseNewestRecordIsTooOld() throws IOException {
        SegmentPartitionLog log = LogFixture.open(engine, config(7 * DAY, 3 * DAY, -1));
        appendAged(log, 10 * DAY);
        appendAged(log, 9 * DAY);   // segment 0: newest 9 days old
        appendAged(log, 8 * DAY);
        appendAged(log, 1 * DAY);   // segment 2: newest 1 day old: kept, and so is everything after
        appendAged(log, 20 * DAY);
        appendAged(log, 20 * DAY);  // segment 4: old, but after a young one
        appendAged(log, 20 * DAY);  // active segment 6: never deleted by retention
        assertThat(logFiles()).hasSize(4);

        assertThat(engine.runRetentionPass()).isEqualTo(1);

        assertThat(log.offsets().logStartOffset()).isEqualTo(2);
        assertThat(logFiles()).hasSize(3);
        assertThat(baseOffsets(bytes(log.read(2, Integer.MAX_VALUE, Long.MAX_VALUE, false)))).containsExactly(2, 3, 4, 5, 6);
        assertThat(engine.runRetentionPass()).isZero();
    }

    @Test
    void retentionBytesDeletesOldestClosedSegmentsWhileTheLogIsTooBig() throws IOException {
        SegmentPartitionLog log = LogFixture.open(engine, config(7 * DAY, -1, 3L * batchSize));
        for (int i = 0; i < 7; i++) {
            appendAged(log, 0); // segments 0, 2, 4 closed (2 batches each), 6 active (1 batch)
        }

        engine.runRetentionPass();

        // 7 batches, limit 3: dropping segments 0 and 2 leaves 3 batches; dropping 4 too would go below
        assertThat(log.offsets().logStartOffset()).isEqualTo(4);
        assertThat(logFiles()).extracting(p -> p.getFileName().toString())
                .containsExactly("00000000-00000000000000000004.log", "00000000-00000000000000000006.log");
    }

    @Test
    void segmentMsRollsAQuietSegmentSoRetentionCanDeleteIt() throws IOException {
        SegmentPartitionLog log = LogFixture.open(engine, LogFixture.config(1 << 20, HOUR, 2 * HOUR, -1, 1, false));
        appendAged(log, 0);
        appendAged(log, 0);
        engine.runRetentionPass();
        assertThat(logFiles()).hasSize(1);

        clock.advance(HOUR);
        engine.runRetentionPass(); // rolled: the quiet segment is closed, not yet old enough
        assertThat(logFiles()).hasSize(2);
        assertThat(log.offsets().logStartOffset()).isZero();

        clock.advance(2 * HOUR);
        engine.runRetentionPass();
        assertThat(log.offsets().logStartOffset()).isEqualTo(2);
        assertThat(logFiles()).extracting(p -> p.getFileName().toString())
                .containsExactly("00000000-00000000000000000002.log");
        assertThat(append(log, batch().build(), true).baseOffset()).isEqualTo(2);
    }

    @Test
    void updateConfigAppliesToTheNextPassWithoutRestart() throws IOException {
        SegmentPartitionLog log = LogFixture.open(engine, config(7 * DAY, -1, -1));
        for (int i = 0; i < 5; i++) {
            appendAged(log, 30 * DAY);
        }
        engine.runRetentionPass();
        assertThat(log.offsets().logStartOffset()).isZero();

        log.updateConfig(config(7 * DAY, DAY, -1));
        engine.runRetentionPass();

        assertThat(log.offsets().logStartOffset()).isEqualTo(4);
    }

    @Test
    void retentionAndDeleteRecordsShareTheLogStartAndItSurvivesRestart() throws IOException {
        LogConfig config = config(7 * DAY, 3 * DAY, -1);
        SegmentPartitionLog log = LogFixture.open(engine, config);
        for (int i = 0; i < 3; i++) {
            appendAged(log, 10 * DAY);
        }
        for (int i = 0; i < 4; i++) {
            appendAged(log, 0);
        }
        assertThat(join(log.deleteRecordsBefore(1))).isEqualTo(1);
        engine.runRetentionPass(); // segment [0, 1] is expired; segment [2, 3] holds a young record and stays
        assertThat(log.offsets().logStartOffset()).isEqualTo(2);
        assertThat(join(log.deleteRecordsBefore(1))).isEqualTo(2); // never backwards, whoever moved it
        engine.close();

        engine = LogFixture.engine(dataDir, IoHooks.NONE, Map.of(), clock);
        SegmentPartitionLog reopened = LogFixture.open(engine, config);
        assertThat(reopened.offsets().logStartOffset()).isEqualTo(2);
        assertThat(reopened.offsets().highWatermark()).isEqualTo(7);
    }

    private List<Path> logFiles() throws IOException {
        try (Stream<Path> s = Files.list(dataDir.resolve("orders").resolve("0"))) {
            return s.filter(p -> p.toString().endsWith(".log")).sorted().toList();
        }
    }

    @Test
    void retentionCuttingIntoAnOpenTransactionHoldsTheLastStableOffsetAtTheLogStart() throws IOException {
        LogConfig config = config(7 * DAY, 3 * DAY, -1);
        SegmentPartitionLog log = LogFixture.open(engine, config);
        append(log, io.kaas.plugin.tck.TestBatches.batch().timestamps(clock.millis() - 10 * DAY, 0).valueSize(100)
                .producer(31, 0, 0).transactional().build(), false);    // 0: P31 opens, 10 days old
        appendAged(log, 9 * DAY);                                        // 1: segment 0 is expired
        appendAged(log, 1 * DAY);                                        // 2
        appendAged(log, 1 * DAY);                                        // 3
        appendAged(log, 0);                                              // 4: active
        assertThat(log.offsets().lastStableOffset()).isZero();

        assertThat(engine.runRetentionPass()).isEqualTo(1);
        assertThat(log.offsets()).as("the open transaction is still open; stable up to the log start")
                .isEqualTo(new io.kaas.api.storage.LogOffsets(2, 5, 2));
        assertThat(log.producers()).extracting(io.kaas.api.storage.ProducerState::currentTxnStartOffset).containsExactly(0L);

        engine.close();
        engine = LogFixture.engine(dataDir, IoHooks.NONE, Map.of(), clock);
        SegmentPartitionLog reopened = LogFixture.open(engine, config);
        assertThat(reopened.offsets()).isEqualTo(new io.kaas.api.storage.LogOffsets(2, 5, 2));
        append(reopened, io.kaas.plugin.tck.TestBatches.controlMarker(31, 0, true).build(), false); // 5
        assertThat(reopened.offsets()).isEqualTo(new io.kaas.api.storage.LogOffsets(2, 6, 6));
    }
}
