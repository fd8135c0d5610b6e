package io.kaas.engine.rocksdb.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.record.ProducedBatches;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.TimestampOffset;
import io.kaas.plugin.tck.TestBatches;
import io.kaas.records.CompressionCodecs;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * ListOffsets by timestamp and MAX_TIMESTAMP land on the exact record inside compressed CreateTime batches,
 * as Kafka answers after decompressing: per codec, against a brute-force model, after a DeleteRecords that
 * cuts through a batch and after reopening.
 */
class TimestampLookupTest {
    private static final PartitionKey KEY = new PartitionKey("t", new UUID(3, 4), 0);
    private static final long NOW = 1_700_000_000_000L;

    @TempDir
    Path dir;

    private RocksDbEngine open() throws Exception {
        return RocksDbEngine.open(dir, RocksDbConfig.from(PluginConfig.empty()),
                Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC));
    }

    @ParameterizedTest(name = "codec {0}")
    @ValueSource(ints = {CompressionCodecs.GZIP, CompressionCodecs.SNAPPY, CompressionCodecs.LZ4, CompressionCodecs.ZSTD})
    void lookupsFindTheExactRecordInsideCompressedBatches(int codec) throws Exception {
        Random random = new Random(codec);
        int batches = 60;
        int perBatch = 5;
        long[] ts = new long[batches * perBatch];
        try (RocksDbEngine engine = open()) {
            PartitionLog log = engine.openPartition(KEY, LogConfig.defaults());
            for (int b = 0; b < batches; b++) {
                long base = 10_000 + b * 20L;
                long[] deltas = new long[perBatch];
                for (int r = 0; r < perBatch; r++) {
                    deltas[r] = random.nextInt(60) - 10;
                    ts[b * perBatch + r] = base + deltas[r];
                }
                TestBatches batch = TestBatches.batch().timestamps(base, deltas);
                log.append(ProducedBatches.validate((b % 3 == 2 ? batch : batch.compressed(codec, CompressedBatches.codec(codec))).build()), false)
                        .get();
            }
            assertMatchesModel(log, ts, 0);
            log.deleteRecordsBefore(152).get(); // inside the batch at 150..154
            assertMatchesModel(log, ts, 152);
        }
        try (RocksDbEngine engine = open()) {
            assertMatchesModel(engine.openPartition(KEY, LogConfig.defaults()), ts, 152);
        }
    }

    @ParameterizedTest(name = "codec {0}")
    @ValueSource(ints = {CompressionCodecs.GZIP, CompressionCodecs.SNAPPY, CompressionCodecs.LZ4, CompressionCodecs.ZSTD})
    void maxTimestampIsTheFirstRecordCarryingItInsideACompressedBatch(int codec) throws Exception {
        try (RocksDbEngine engine = open()) {
            PartitionLog log = engine.openPartition(KEY, LogConfig.defaults());
            log.append(ProducedBatches.validate(TestBatches.batch().timestamps(1000, 0, 10)
                    .compressed(codec, CompressedBatches.codec(codec)).build()), false).get();
            log.append(ProducedBatches.validate(TestBatches.batch().timestamps(2000, 5, 70, 1, 70)
                    .compressed(codec, CompressedBatches.codec(codec)).build()), false).get();
            log.append(ProducedBatches.validate(TestBatches.batch().timestamps(1500, 0)
                    .compressed(codec, CompressedBatches.codec(codec)).build()), false).get();

            assertThat(log.maxTimestamp()).contains(new TimestampOffset(2070, 3, -1));
            assertThat(log.offsetForTimestamp(2002)).contains(new TimestampOffset(2005, 2, -1));
            assertThat(log.offsetForTimestamp(2006)).contains(new TimestampOffset(2070, 3, -1));
            assertThat(log.offsetForTimestamp(1001)).contains(new TimestampOffset(1010, 1, -1));
            assertThat(log.offsetForTimestamp(2071)).isEmpty();

            log.deleteRecordsBefore(4).get(); // the first record with 2070 is gone: the second one answers
            assertThat(log.maxTimestamp()).contains(new TimestampOffset(2070, 5, -1));
            assertThat(log.offsetForTimestamp(2006)).contains(new TimestampOffset(2070, 5, -1));
        }
    }

    @Test
    void compressedLogAppendTimeBatchesAnswerTheirFirstReadableOffsetWithTheEngineTime() throws Exception {
        LogConfig d = LogConfig.defaults();
        LogConfig logAppendTime = new LogConfig(d.segmentBytes(), d.segmentMs(), d.retentionMs(), d.retentionBytes(),
                d.maxMessageBytes(), d.flushMessages(), true, false);
        try (RocksDbEngine engine = open()) {
            PartitionLog log = engine.openPartition(KEY, logAppendTime);
            log.append(ProducedBatches.validate(TestBatches.batch().timestamps(5, 0, 9, 3)
                    .compressed(CompressionCodecs.ZSTD, CompressedBatches.codec(CompressionCodecs.ZSTD)).build()), false).get();
            log.append(ProducedBatches.validate(TestBatches.batch().timestamps(5, 0, 1)
                    .compressed(CompressionCodecs.LZ4, CompressedBatches.codec(CompressionCodecs.LZ4)).build()), false).get();

            assertThat(log.offsetForTimestamp(6)).contains(new TimestampOffset(NOW, 0, -1));
            assertThat(log.maxTimestamp()).contains(new TimestampOffset(NOW, 0, -1));
            log.deleteRecordsBefore(1).get();
            assertThat(log.offsetForTimestamp(NOW)).contains(new TimestampOffset(NOW, 1, -1));
            assertThat(log.maxTimestamp()).contains(new TimestampOffset(NOW, 1, -1));
        }
    }

    private static void assertMatchesModel(PartitionLog log, long[] ts, int logStart) {
        for (long target = 9_980; target <= 11_300; target += 3) {
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
