package io.kaas.engine.segments.internal;

import static io.kaas.engine.segments.internal.LogFixture.append;
import static io.kaas.engine.segments.internal.LogFixture.baseOffsets;
import static io.kaas.engine.segments.internal.LogFixture.bytes;
import static io.kaas.engine.segments.internal.LogFixture.config;
import static io.kaas.engine.segments.internal.LogFixture.join;
import static io.kaas.engine.segments.internal.TestBatches.batch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.record.ProducedBatches;
import io.kaas.api.record.RecordBatches;
import io.kaas.api.storage.AppendResult;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.LogOffsets;
import io.kaas.api.storage.OffsetOutOfRangeException;
import io.kaas.api.storage.ReadResult;
import io.kaas.api.storage.RecordTooLargeException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SegmentPartitionLogTest {
    @TempDir
    Path dataDir;
    SegmentEngine engine;

    @BeforeEach
    void openEngine() throws IOException {
        engine = LogFixture.engine(dataDir);
    }

    @AfterEach
    void closeEngine() throws IOException {
        engine.close();
    }

    @Test
    void appendThenReadReturnsTheSameBytesAtTheAssignedOffsets() throws IOException {
        SegmentPartitionLog log = LogFixture.open(engine, LogConfig.defaults());
        ByteBuffer a = batch().records(3).build();
        ByteBuffer b = batch().records(2).build();
        AppendResult ra = append(log, a, true);
        AppendResult rb = append(log, b, false);

        assertThat(ra.baseOffset()).isEqualTo(0);
        assertThat(ra.lastOffset()).isEqualTo(2);
        assertThat(rb.baseOffset()).isEqualTo(3);
        assertThat(rb.lastOffset()).isEqualTo(4);
        assertThat(log.offsets()).isEqualTo(new LogOffsets(0, 5, 5));

        ReadResult read = log.read(0, Integer.MAX_VALUE, Long.MAX_VALUE, false);
        // the engine rewrote the base offsets in the caller's buffers: they must be identical to the stored bytes
        assertThat(bytes(read)).isEqualTo(bytes(TestBatches.concat(a, b)));
        assertThat(baseOffsets(bytes(read))).containsExactly(0, 3);
        ByteBuffer stored = ByteBuffer.wrap(bytes(read));
        assertThat(RecordBatches.validate(stored)).hasSize(2);
    }

    @Test
    void readInTheMiddleOfABatchReturnsTheWholeBatch() throws IOException {
        SegmentPartitionLog log = LogFixture.open(engine, LogConfig.defaults());
        append(log, batch().records(5).build(), false);
        append(log, batch().records(5).build(), false);

        ReadResult read = log.read(7, Integer.MAX_VALUE, Long.MAX_VALUE, false);

        assertThat(baseOffsets(bytes(read))).containsExactly(5);
    }

    @Test
    void maxBytesStopsBeforeABatchThatWouldNotFitUnlessItIsTheFirstAndMinOneBatch() throws IOException {
        SegmentPartitionLog log = LogFixture.open(engine, LogConfig.defaults());
        ByteBuffer first = batch().valueSize(100).build();
        int size = first.remaining();
        append(log, first, false);
        append(log, batch().valueSize(100).build(), false);
        append(log, batch().valueSize(100).build(), false);

        assertThat(baseOffsets(bytes(log.read(0, 2 * size + 10, Long.MAX_VALUE, false)))).containsExactly(0, 1);
        assertThat(log.read(0, size - 1, Long.MAX_VALUE, false).slices()).isEmpty();
        assertThat(baseOffsets(bytes(log.read(0, size - 1, Long.MAX_VALUE, true)))).containsExactly(0);
        assertThat(baseOffsets(bytes(log.read(0, Integer.MAX_VALUE, 2, false)))).containsExactly(0, 1);
    }

    @Test
    void everyReadEndsWhereAScanOfItsBatchesWouldAcrossSegmentsAndIndexEntries() throws IOException {
        // Batches from 60 bytes to 9 KiB (several per 4 KiB index interval, and some larger than it), over
        // a few segments; the read's end is found through the index and must match the plain scan.
        java.util.Random random = new java.util.Random(42);
        SegmentPartitionLog log = LogFixture.open(engine, config(200_000));
        List<long[]> batches = new java.util.ArrayList<>(); // {baseOffset, lastOffset, size}
        for (int i = 0; i < 200; i++) {
            ByteBuffer b = batch().records(1 + random.nextInt(4)).valueSize(random.nextInt(9000)).build();
            int size = b.remaining();
            AppendResult r = append(log, b, false);
            batches.add(new long[] {r.baseOffset(), r.lastOffset(), size});
        }
        long end = batches.get(batches.size() - 1)[1] + 1;
        for (int i = 0; i < 500; i++) {
            long offset = random.nextInt((int) end);
            int maxBytes = 1 + random.nextInt(random.nextBoolean() ? 20_000 : 400_000);
            long maxOffset = random.nextInt(4) == 0 ? offset + random.nextInt(50) : Long.MAX_VALUE;
            boolean minOneBatch = random.nextBoolean();
            List<Long> expected = new java.util.ArrayList<>();
            long taken = 0;
            for (long[] b : batches) {
                if (offset >= Math.min(maxOffset, end)) {
                    break; // nothing below the limit from here on
                }
                if (b[1] < offset) {
                    continue;
                }
                if (b[0] >= Math.min(maxOffset, end) || (taken + b[2] > maxBytes && !(minOneBatch && taken == 0))) {
                    break;
                }
                expected.add(b[0]);
                taken += b[2];
            }
            long[] read = baseOffsets(bytes(log.read(offset, maxBytes, maxOffset, minOneBatch)));
            assertThat(read).as("offset %d, maxBytes %d, maxOffset %d, minOneBatch %s", offset, maxBytes, maxOffset,
                minOneBatch).containsExactly(expected.stream().mapToLong(Long::longValue).toArray());
        }
    }

    @Test
    void offsetsOutsideTheLogAreOutOfRangeAndTheEndIsEmpty() throws IOException {
        SegmentPartitionLog log = LogFixture.open(engine, LogConfig.defaults());
        append(log, batch().records(4).build(), false);
        join(log.deleteRecordsBefore(2));

        assertThat(log.read(4, 1000, Long.MAX_VALUE, true).slices()).isEmpty();
        assertThatThrownBy(() -> log.read(5, 1000, Long.MAX_VALUE, true)).isInstanceOf(OffsetOutOfRangeException.class);
        assertThatThrownBy(() -> log.read(1, 1000, Long.MAX_VALUE, true)).isInstanceOf(OffsetOutOfRangeException.class);
        assertThat(baseOffsets(bytes(log.read(2, 1000, Long.MAX_VALUE, true)))).containsExactly(0);
    }

    @Test
    void rollsSegmentsAndReadsAcrossThem() throws IOException {
        int size = batch().valueSize(200).build().remaining();
        SegmentPartitionLog log = LogFixture.open(engine, config(3L * size));
        for (int i = 0; i < 10; i++) {
            append(log, batch().records(2).valueSize(200 - 0).build().duplicate(), i % 2 == 0);
        }
        assertThat(logFiles()).hasSizeGreaterThan(3);

        ReadResult all = log.read(0, Integer.MAX_VALUE, Long.MAX_VALUE, false);
        assertThat(all.slices().size()).isGreaterThan(1);
        assertThat(baseOffsets(bytes(all))).containsExactly(0, 2, 4, 6, 8, 10, 12, 14, 16, 18);
        assertThat(baseOffsets(bytes(log.read(13, Integer.MAX_VALUE, Long.MAX_VALUE, false))))
                .containsExactly(12, 14, 16, 18);
    }

    @Test
    void reopenAfterCloseKeepsEveryBatch() throws IOException {
        SegmentPartitionLog log = LogFixture.open(engine, config(2_000));
        for (int i = 0; i < 20; i++) {
            append(log, batch().records(3).valueSize(50).build(), false);
        }
        byte[] before = bytes(log.read(0, Integer.MAX_VALUE, Long.MAX_VALUE, false));
        engine.close();

        engine = LogFixture.engine(dataDir);
        SegmentPartitionLog reopened = LogFixture.open(engine, config(2_000));
        assertThat(reopened.offsets()).isEqualTo(new LogOffsets(0, 60, 60));
        assertThat(bytes(reopened.read(0, Integer.MAX_VALUE, Long.MAX_VALUE, false))).isEqualTo(before);
        assertThat(append(reopened, batch().build(), true).baseOffset()).isEqualTo(60);
    }

    @Test
    void recordTooLargeStoresNothing() throws IOException {
        LogConfig d = LogConfig.defaults();
        SegmentPartitionLog log = LogFixture.open(engine, new LogConfig(d.segmentBytes(), d.segmentMs(), d.retentionMs(),
                d.retentionBytes(), 200, 1, false, false));
        append(log, batch().valueSize(10).build(), true);
        long sizeBefore = Files.size(logFiles().get(0));

        assertThatThrownBy(() -> log.append(ProducedBatches.validate(TestBatches.concat(batch().valueSize(10).build(), batch().valueSize(300).build())), true))
                .isInstanceOf(RecordTooLargeException.class);
        assertThat(log.offsets().highWatermark()).isEqualTo(1);
        assertThat(Files.size(logFiles().get(0))).isEqualTo(sizeBefore);
    }

    @Test
    void deleteRecordsMovesLogStartDeletesWholeSegmentsAndSurvivesReopen() throws IOException {
        int size = batch().valueSize(100).build().remaining();
        SegmentPartitionLog log = LogFixture.open(engine, config(2L * size));
        for (int i = 0; i < 8; i++) {
            append(log, batch().valueSize(100).build(), false); // 2 batches per segment: bases 0,2,4,6
        }
        assertThat(logFiles()).hasSize(4);
        assertThatThrownBy(() -> log.deleteRecordsBefore(9)).isInstanceOf(OffsetOutOfRangeException.class);

        assertThat(join(log.deleteRecordsBefore(5))).isEqualTo(5);
        assertThat(join(log.deleteRecordsBefore(3))).isEqualTo(5); // never backwards
        assertThat(log.offsets().logStartOffset()).isEqualTo(5);
        assertThat(logFiles()).extracting(p -> p.getFileName().toString())
                .containsExactly("00000000-00000000000000000004.log", "00000000-00000000000000000006.log");
        assertThat(baseOffsets(bytes(log.read(5, Integer.MAX_VALUE, Long.MAX_VALUE, false)))).containsExactly(5, 6, 7);

        engine.close();
        engine = LogFixture.engine(dataDir);
        SegmentPartitionLog reopened = LogFixture.open(engine, config(2L * size));
        assertThat(reopened.offsets()).isEqualTo(new LogOffsets(5, 8, 8));
        assertThatThrownBy(() -> reopened.read(4, 1000, Long.MAX_VALUE, true)).isInstanceOf(OffsetOutOfRangeException.class);
    }

    @Test
    void offsetForTimestampIsExactForUncompressedAndBatchLevelForUndecodableCompressed() throws IOException {
        SegmentPartitionLog log = LogFixture.open(engine, LogConfig.defaults());
        append(log, batch().timestamps(1000, 0, 10, 20).build(), false);      // offsets 0..2: 1000, 1010, 1020
        append(log, batch().timestamps(2000, 5, 0, 50).build(), false);       // offsets 3..5: 2005, 2000, 2050
        append(log, batch().timestamps(3000, 0, 30).codecBitsOnly(1).build(), false); // offsets 6..7, max 3030, not gzip

        assertThat(log.offsetForTimestamp(1005)).hasValueSatisfying(t -> {
            assertThat(t.offset()).isEqualTo(1);
            assertThat(t.timestamp()).isEqualTo(1010);
        });
        assertThat(log.offsetForTimestamp(2001).orElseThrow().offset()).isEqualTo(3);
        assertThat(log.offsetForTimestamp(2006).orElseThrow().offset()).isEqualTo(5);
        assertThat(log.offsetForTimestamp(3010).orElseThrow()).satisfies(t -> {
            assertThat(t.offset()).isEqualTo(6);
            assertThat(t.timestamp()).isEqualTo(3030);
        });
        assertThat(log.offsetForTimestamp(4000)).isEmpty();
        assertThat(log.maxTimestamp().orElseThrow().offset()).isEqualTo(6);
    }

    @Test
    void maxTimestampFindsTheRecordInsideAnUncompressedBatch() throws IOException {
        SegmentPartitionLog log = LogFixture.open(engine, LogConfig.defaults());
        assertThat(log.maxTimestamp()).isEmpty();
        append(log, batch().timestamps(1000, 0, 10).build(), false);
        append(log, batch().timestamps(2000, 5, 70, 50).build(), false);  // offset 3 has 2070
        append(log, batch().timestamps(1500, 0).build(), false);

        assertThat(log.maxTimestamp().orElseThrow()).satisfies(t -> {
            assertThat(t.offset()).isEqualTo(3);
            assertThat(t.timestamp()).isEqualTo(2070);
        });
    }

    @Test
    void logAppendTimeIsStampedAndUsedForLookups() throws IOException {
        LogConfig d = LogConfig.defaults();
        SegmentPartitionLog log = LogFixture.open(engine, new LogConfig(d.segmentBytes(), d.segmentMs(), d.retentionMs(),
                d.retentionBytes(), d.maxMessageBytes(), 1, true, false));
        AppendResult r = append(log, batch().timestamps(5, 0, 1).build(), true);

        assertThat(r.logAppendTime()).isEqualTo(LogFixture.NOW);
        ByteBuffer stored = ByteBuffer.wrap(bytes(log.read(0, 1000, Long.MAX_VALUE, true)));
        assertThat(RecordBatches.validateOne(stored, 0, 0).isLogAppendTime()).isTrue();
        assertThat(log.offsetForTimestamp(LogFixture.NOW).orElseThrow().offset()).isEqualTo(0);
    }

    private List<Path> logFiles() throws IOException {
        try (Stream<Path> s = Files.list(dataDir.resolve("orders").resolve("0"))) {
            return s.filter(p -> p.toString().endsWith(".log")).sorted().toList();
        }
    }
}
