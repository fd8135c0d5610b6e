package io.kaas.engine.segments.internal;

import static io.kaas.engine.segments.internal.LogFixture.append;
import static io.kaas.engine.segments.internal.LogFixture.join;
import static io.kaas.engine.segments.internal.TestBatches.batch;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.storage.TimestampOffset;
import io.kaas.records.CompressionCodecs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * ListOffsets by timestamp and MAX_TIMESTAMP land on the exact record inside compressed CreateTime batches,
 * as Kafka answers after decompressing: checked per codec against a brute-force model, across segments,
 * after a DeleteRecords that cuts through a batch and after reopening.
 */
class CompressedTimestampLookupTest {
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

    @ParameterizedTest(name = "codec {0}")
    @ValueSource(ints = {CompressionCodecs.GZIP, CompressionCodecs.SNAPPY, CompressionCodecs.LZ4, CompressionCodecs.ZSTD})
    void lookupsFindTheExactRecordInsideCompressedBatches(int codec) throws IOException {
        SegmentPartitionLog log = LogFixture.open(engine, LogFixture.config(8_000));
        Random random = new Random(codec);
        int batches = 120;
        int perBatch = 5;
        long[] ts = new long[batches * perBatch];
        for (int b = 0; b < batches; b++) {
            long base = 10_000 + b * 20L;
            long[] deltas = new long[perBatch];
            for (int r = 0; r < perBatch; r++) {
                deltas[r] = random.nextInt(60) - 10; // disorder inside and across batches
                ts[b * perBatch + r] = base + deltas[r];
            }
            TestBatches builder = batch().timestamps(base, deltas).valueSize(50);
            append(log, (b % 3 == 2 ? builder : builder.compressed(codec)).build(), false);
        }
        assertMatchesModel(log, ts, 0);

        join(log.deleteRecordsBefore(302)); // inside the batch at 300..304
        assertMatchesModel(log, ts, 302);

        engine.close();
        engine = LogFixture.engine(dataDir);
        assertMatchesModel(LogFixture.open(engine, LogFixture.config(8_000)), ts, 302);
    }

    @ParameterizedTest(name = "codec {0}")
    @ValueSource(ints = {CompressionCodecs.GZIP, CompressionCodecs.SNAPPY, CompressionCodecs.LZ4, CompressionCodecs.ZSTD})
    void maxTimestampIsTheFirstRecordCarryingItInsideACompressedBatch(int codec) throws IOException {
        SegmentPartitionLog log = LogFixture.open(engine, LogFixture.config(1 << 20));
        append(log, batch().timestamps(1000, 0, 10).compressed(codec).build(), false);          // 0..1
        append(log, batch().timestamps(2000, 5, 70, 1, 70).compressed(codec).build(), false);   // 2..5: max 2070 at 3 and 5
        append(log, batch().timestamps(1500, 0).compressed(codec).build(), false);              // 6

        assertThat(log.maxTimestamp()).contains(new TimestampOffset(2070, 3, -1));
        assertThat(log.offsetForTimestamp(2002)).contains(new TimestampOffset(2005, 2, -1));
        assertThat(log.offsetForTimestamp(2006)).contains(new TimestampOffset(2070, 3, -1));
        assertThat(log.offsetForTimestamp(1001)).contains(new TimestampOffset(1010, 1, -1));
        assertThat(log.offsetForTimestamp(2071)).isEmpty();

        join(log.deleteRecordsBefore(4)); // the first record with 2070 is gone: the second one answers
        assertThat(log.maxTimestamp()).contains(new TimestampOffset(2070, 5, -1));
        assertThat(log.offsetForTimestamp(2006)).contains(new TimestampOffset(2070, 5, -1));
    }

    @Test
    void compressedLogAppendTimeBatchesAnswerTheirFirstReadableOffsetWithTheBrokerTime() throws IOException {
        SegmentPartitionLog log = LogFixture.open(engine, LogFixture.config(1 << 20, 7L * 24 * 3600 * 1000, -1, -1, 1, true));
        append(log, batch().timestamps(5, 0, 9, 3).compressed(CompressionCodecs.ZSTD).build(), false);
        append(log, batch().timestamps(5, 0, 1).compressed(CompressionCodecs.LZ4).build(), false);

        assertThat(log.offsetForTimestamp(6)).contains(new TimestampOffset(LogFixture.NOW, 0, -1));
        assertThat(log.maxTimestamp()).contains(new TimestampOffset(LogFixture.NOW, 0, -1));
        join(log.deleteRecordsBefore(1));
        assertThat(log.offsetForTimestamp(LogFixture.NOW)).contains(new TimestampOffset(LogFixture.NOW, 1, -1));
        assertThat(log.maxTimestamp()).contains(new TimestampOffset(LogFixture.NOW, 1, -1));
    }

    private static void assertMatchesModel(SegmentPartitionLog log, long[] ts, int logStart) {
        for (long target = 9_980; target <= 12_500; target += 3) {
            Optional<TimestampOffset> expected = Optional.empty();
            for (int o = logStart; o < ts.length; o++) {
                if (ts[o] >= target) {
                    expected = Optional.of(new TimestampOffset(ts[o], o, -1));
                    break;
                }
            }
            assertThat(log.offsetForTimestamp(target)).as("target %d", target).isEqualTo(expected);
        }
        int best = logStart;
        for (int o = logStart; o < ts.length; o++) {
            if (ts[o] > ts[best]) {
                best = o;
            }
        }
        assertThat(log.maxTimestamp()).contains(new TimestampOffset(ts[best], best, -1));
    }
}
