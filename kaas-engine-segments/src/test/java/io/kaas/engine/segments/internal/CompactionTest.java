package io.kaas.engine.segments.internal;

import static io.kaas.engine.segments.internal.KeyedBatches.batch;
import static io.kaas.engine.segments.internal.KeyedBatches.kv;
import static io.kaas.engine.segments.internal.LogFixture.append;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.record.ProducedBatches;
import io.kaas.api.record.RecordBatches;
import io.kaas.api.storage.InvalidRecordException;
import io.kaas.api.storage.LogConfig;
import io.kaas.engine.segments.internal.KeyedBatches.Read;
import io.kaas.records.CompressionCodecs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CompactionTest {
    static final long HOUR = 3_600_000L;

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

    private SegmentPartitionLog open(Map<String, String> settings, LogConfig config) throws IOException {
        engine = LogFixture.engine(dataDir, IoHooks.NONE, settings, clock);
        return LogFixture.open(engine, config);
    }

    /** One batch per segment (segment.bytes = 1 byte rolls before every append), compact, lag 0, ratio 0.5. */
    static LogConfig compact(long deleteRetentionMs, long minLagMs, double ratio) {
        return LogFixture.config(1).withCleanup(true, false, deleteRetentionMs, minLagMs, Long.MAX_VALUE, ratio);
    }

    private long now() {
        return clock.millis();
    }

    private static List<Read> readAll(SegmentPartitionLog log) throws IOException {
        return KeyedBatches.decode(LogFixture.bytes(log.read(log.offsets().logStartOffset(), Integer.MAX_VALUE,
                Long.MAX_VALUE, true)));
    }

    @Test
    void keepsTheLatestRecordPerKeyAtItsOriginalOffset() throws IOException {
        SegmentPartitionLog log = open(Map.of(), compact(HOUR, 0, 0.5));
        List<Read> written = new ArrayList<>();
        long offset = 0;
        for (int round = 0; round < 5; round++) {
            for (String k : List.of("a", "b", "c")) {
                append(log, batch(now(), 0, kv(k, k + round), kv(k + "-x", "x" + round)), false);
                written.add(new Read(offset++, k, k + round));
                written.add(new Read(offset++, k + "-x", "x" + round));
            }
        }
        append(log, batch(now(), 0, kv("tail", "t")), false); // the active segment: never compacted
        assertThat(engine.runCleanerPass()).isGreaterThan(0);

        List<Read> after = readAll(log);
        Map<String, Read> expected = KeyedBatches.latest(written);
        assertThat(after).containsExactlyElementsOf(Stream.concat(expected.values().stream().sorted(
                java.util.Comparator.comparingLong(Read::offset)), Stream.of(new Read(30, "tail", "t"))).toList());
        assertThat(log.offsets().highWatermark()).isEqualTo(31);
        assertThat(log.offsets().logStartOffset()).isZero();
        // appends go on at the same log end; a second pass without new data does nothing (ratio 0)
        assertThat(append(log, batch(now(), 0, kv("a", "new")), false).baseOffset()).isEqualTo(31);
        assertThat(engine.runCleanerPass()).isZero();
    }

    /** The base offsets and control bits of every stored batch from the log start. */
    private static List<String> batchKinds(SegmentPartitionLog log) throws IOException {
        List<String> kinds = new ArrayList<>();
        byte[] bytes = LogFixture.bytes(log.read(log.offsets().logStartOffset(), Integer.MAX_VALUE, Long.MAX_VALUE, true));
        for (io.kaas.api.record.BatchHeader h : RecordBatches.headers(java.nio.ByteBuffer.wrap(bytes))) {
            kinds.add(h.baseOffset() + (h.isControl() ? " marker" : h.recordCount() == 0 ? " empty" : " data"));
        }
        return kinds;
    }

    @Test
    void keepsTransactionMarkersAndCleansNothingOfAnOpenTransaction() throws IOException {
        SegmentPartitionLog log = open(Map.of(), compact(HOUR, 0, 0));
        append(log, io.kaas.plugin.tck.TestBatches.batch().record("a", "in-txn").producer(1, 0, -1).transactional()
                .build(), false);                                                                         // 0
        append(log, io.kaas.plugin.tck.TestBatches.controlMarker(1, 0, true).build(), false);            // 1
        append(log, batch(now(), 0, kv("a", "later")), false);                                            // 2
        append(log, io.kaas.plugin.tck.TestBatches.batch().record("b", "open").producer(2, 0, -1).transactional()
                .build(), false);                                                                         // 3: stays open
        append(log, batch(now(), 0, kv("b", "after")), false);                                            // 4
        append(log, batch(now(), 0, kv("a", "latest")), false);                                           // 5
        append(log, batch(now(), 0, kv("tail", "t")), false);                                             // 6, active
        assertThat(log.offsets().lastStableOffset()).isEqualTo(3);

        assertThat(engine.runCleanerPass()).as("a pass ran").isGreaterThan(0);

        // 0 lost its record to 2 (an empty batch stays: the last of its segment); 1, the marker, stays though its
        // data is gone; from the last stable offset on (3-5) nothing is cleaned, so 3's "b" survives 4's and 2's
        // "a" survives 5's
        assertThat(batchKinds(log)).containsExactly("0 empty", "1 marker", "2 data", "3 data", "4 data", "5 data", "6 data");
        assertThat(log.offsets().lastStableOffset()).isEqualTo(3);
    }

    @Test
    void survivesReopenAndReadsFromEveryOffset() throws IOException {
        SegmentPartitionLog log = open(Map.of(), compact(HOUR, 0, 0));
        for (int i = 0; i < 20; i++) {
            append(log, batch(now(), 0, kv("k" + (i % 4), "v" + i)), false);
        }
        engine.runCleanerPass();
        List<Read> before = readAll(log);
        engine.close();
        SegmentPartitionLog reopened = open(Map.of(), compact(HOUR, 0, 0));
        assertThat(readAll(reopened)).isEqualTo(before);
        assertThat(reopened.cleanerCheckpoint()).isEqualTo(19);
        // a fetch at an offset whose record was compacted away starts at the next surviving batch
        long firstSurvivor = before.get(0).offset();
        assertThat(firstSurvivor).isGreaterThan(0);
        byte[] fromZero = LogFixture.bytes(reopened.read(0, Integer.MAX_VALUE, Long.MAX_VALUE, true));
        assertThat(KeyedBatches.decode(fromZero)).isEqualTo(before);
    }

    @Test
    void tombstonesStayForDeleteRetentionThenGo() throws IOException {
        SegmentPartitionLog log = open(Map.of(), compact(HOUR, 0, 0));
        append(log, batch(now(), 0, kv("a", "1")), false);
        append(log, batch(now(), 0, kv("b", "1")), false);
        append(log, batch(now(), 0, kv("a", null)), false);
        append(log, batch(now(), 0, kv("c", "1")), false);
        engine.runCleanerPass();
        assertThat(readAll(log)).extracting(Read::key, Read::value)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("b", "1"), org.assertj.core.groups.Tuple.tuple("a", null),
                        org.assertj.core.groups.Tuple.tuple("c", "1"));
        clock.advance(HOUR + 1);
        append(log, batch(now(), 0, kv("d", "1")), false); // new dirty data so a pass runs
        append(log, batch(now(), 0, kv("e", "1")), false);
        engine.runCleanerPass();
        assertThat(readAll(log)).extracting(Read::key).containsExactly("b", "c", "d", "e");
    }

    @Test
    void anExpiredTombstoneIsDroppedWithoutNewData() throws IOException {
        SegmentPartitionLog log = open(Map.of(), compact(HOUR, 0, 0.5));
        append(log, batch(now(), 0, kv("a", "1")), false);
        append(log, batch(now(), 0, kv("a", null)), false);
        append(log, batch(now(), 0, kv("b", "1")), false);
        append(log, batch(now(), 0, kv("tail", "t")), false);
        engine.runCleanerPass();
        assertThat(readAll(log)).extracting(Read::key).containsExactly("a", "b", "tail");
        assertThat(engine.runCleanerPass()).isZero(); // nothing dirty, tombstone not yet expired
        clock.advance(HOUR + 1);
        assertThat(engine.runCleanerPass()).isEqualTo(1);
        assertThat(readAll(log)).extracting(Read::key).containsExactly("b", "tail");
    }

    @Test
    void minCompactionLagKeepsYoungSegmentsAsWritten() throws IOException {
        SegmentPartitionLog log = open(Map.of(), compact(HOUR, 10 * 60_000L, 0));
        append(log, batch(now() - 20 * 60_000L, 0, kv("a", "old")), false);
        append(log, batch(now(), 0, kv("a", "young")), false);
        append(log, batch(now(), 0, kv("a", "younger")), false);
        append(log, batch(now(), 0, kv("z", "active")), false);
        engine.runCleanerPass();
        // only the old segment is cleanable and it holds the latest "a" of the cleanable range
        assertThat(readAll(log)).extracting(Read::value).containsExactly("old", "young", "younger", "active");
        clock.advance(11 * 60_000L);
        engine.runCleanerPass();
        assertThat(readAll(log)).extracting(Read::value).containsExactly("younger", "active");
    }

    @Test
    void dirtyRatioAndMaxCompactionLagDecideWhenToClean() throws IOException {
        LogConfig strict = compact(HOUR, 0, 0.99).withCleanup(true, false, HOUR, 0, HOUR, 0.99);
        SegmentPartitionLog log = open(Map.of(), strict);
        for (int i = 0; i < 4; i++) {
            append(log, batch(now(), 0, kv("k", "v" + i)), false);
        }
        append(log, batch(now(), 0, kv("tail", "t")), false);
        engine.runCleanerPass(); // everything dirty: ratio 1 >= 0.99
        assertThat(readAll(log)).extracting(Read::value).containsExactly("v3", "t");
        append(log, batch(now(), 0, kv("k", "v4")), false);
        append(log, batch(now(), 0, kv("tail", "t2")), false);
        assertThat(engine.runCleanerPass()).isZero(); // dirty share well below 0.99
        clock.advance(HOUR + 1);
        append(log, batch(now(), 0, kv("x", "x")), false);
        assertThat(engine.runCleanerPass()).isGreaterThan(0); // max.compaction.lag.ms passed
        assertThat(readAll(log)).extracting(Read::value).containsExactly("v4", "t2", "x");
    }

    @Test
    void aBoundedKeyMapTakesSeveralPasses() throws IOException {
        SegmentPartitionLog log = open(Map.of("cleaner.max.keys.per.pass", "4"), compact(HOUR, 0, 0));
        for (int round = 0; round < 3; round++) {
            for (int k = 0; k < 10; k++) {
                append(log, batch(now(), 0, kv("k" + k, "r" + round)), false);
            }
        }
        append(log, batch(now(), 0, kv("tail", "t")), false);
        int passes = 0;
        while (log.cleanerCheckpoint() < 30 && passes < 20) {
            engine.runCleanerPass();
            passes++;
        }
        assertThat(passes).isGreaterThan(1);
        List<Read> after = readAll(log);
        assertThat(after).extracting(Read::value).filteredOn(v -> !v.equals("t")).containsOnly("r2").hasSize(10);
    }

    @ParameterizedTest
    @ValueSource(ints = {CompressionCodecs.NONE, CompressionCodecs.GZIP, CompressionCodecs.SNAPPY, CompressionCodecs.LZ4, CompressionCodecs.ZSTD})
    void rewritesCompressedBatchesWithTheirCodec(int codec) throws IOException {
        SegmentPartitionLog log = open(Map.of(), compact(HOUR, 0, 0));
        append(log, batch(now(), codec, kv("a", "1"), kv("b", "1"), kv("a", "2"), kv("c", "1")), false);
        append(log, batch(now(), codec, kv("b", "2"), kv("d", "1")), false);
        append(log, batch(now(), codec, kv("tail", "t")), false);
        engine.runCleanerPass();
        byte[] data = LogFixture.bytes(log.read(0, Integer.MAX_VALUE, Long.MAX_VALUE, true));
        assertThat(KeyedBatches.decode(data)).containsExactly(new Read(1 + 1, "a", "2"), new Read(3, "c", "1"),
                new Read(4, "b", "2"), new Read(5, "d", "1"), new Read(6, "tail", "t"));
        assertThat(data[RecordBatches.ATTRIBUTES + 1] & RecordBatches.COMPRESSION_CODEC_MASK).as("codec of the rewritten first batch").isEqualTo(codec);
    }

    @Test
    void refusesKeylessRecordsOnCompactedTopicsOnly() throws IOException {
        SegmentPartitionLog log = open(Map.of(), compact(HOUR, 0, 0));
        for (int codec : new int[] {CompressionCodecs.NONE, CompressionCodecs.ZSTD}) {
            assertThatThrownBy(() -> log.append(ProducedBatches.validate(batch(now(), codec, kv("a", "1"), kv(null, "x"))), false))
                    .isInstanceOf(InvalidRecordException.class).hasMessageContaining("without key");
        }
        assertThat(log.offsets().highWatermark()).isZero();
        log.updateConfig(LogFixture.config(1));
        assertThat(append(log, batch(now(), 0, kv(null, "x")), false).baseOffset()).isZero();
    }

    @Test
    void keepsAnEmptiedBatchStillInItsProducersWindow() throws IOException {
        SegmentPartitionLog log = open(Map.of(), compact(HOUR, 0, 0));
        append(log, batch(now(), 0, 7L, (short) 0, 0, kv("a", "1")), false);
        append(log, batch(now(), 0, 7L, (short) 0, 1, kv("a", "2")), false);
        append(log, batch(now(), 0, kv("a", "3")), false);
        append(log, batch(now(), 0, kv("tail", "t")), false);
        engine.runCleanerPass();
        byte[] data = LogFixture.bytes(log.read(0, Integer.MAX_VALUE, Long.MAX_VALUE, true));
        // both producer batches stay (emptied) in the window; the records are gone
        assertThat(LogFixture.baseOffsets(data)).containsExactly(0, 1, 2, 3);
        assertThat(KeyedBatches.decode(data)).extracting(Read::value).containsExactly("3", "t");
        engine.close();
        Files.deleteIfExists(PartitionDirectory.pathOf(dataDir, LogFixture.KEY).resolve(PartitionDirectory.PRODUCER_SNAPSHOT_FILE));
        SegmentPartitionLog reopened = open(Map.of(), compact(HOUR, 0, 0));
        // rebuilt from the log: a retry of sequence 1 is still a duplicate answered with its original offset
        assertThat(append(reopened, batch(now(), 0, 7L, (short) 0, 1, kv("a", "2")), true).baseOffset()).isEqualTo(1);
    }

    @Test
    void anInterruptedSwapRollsBackOrForwardOnOpen() throws IOException {
        SegmentPartitionLog log = open(Map.of(), compact(HOUR, 0, 0));
        for (int i = 0; i < 6; i++) {
            append(log, batch(now(), 0, kv("k", "v" + i)), false);
        }
        List<Read> original = readAll(log);
        engine.close();
        Path partition = PartitionDirectory.pathOf(dataDir, LogFixture.KEY);
        Path copy = Files.createTempDirectory(dataDir, "copy");
        copyDir(partition, copy);
        log = open(Map.of(), compact(HOUR, 0, 0));
        engine.runCleanerPass();
        List<Read> compacted = readAll(log);
        assertThat(compacted).hasSizeLessThan(original.size());
        engine.close();
        engine = null;
        Path compactedDir = Files.createTempDirectory(dataDir, "compacted");
        copyDir(partition, compactedDir);
        String firstLog;
        try (Stream<Path> s = Files.list(compactedDir)) {
            firstLog = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".log")).sorted().findFirst().orElseThrow();
        }
        // a crash before the commit: a .cleaned next to the original segment is dropped
        copyDir(copy, partition, true);
        Files.copy(compactedDir.resolve(firstLog), partition.resolve(firstLog + ".cleaned"));
        log = open(Map.of(), compact(HOUR, 0, 0));
        assertThat(readAll(log)).isEqualTo(original);
        engine.close();
        assertThat(partition.resolve(firstLog + ".cleaned")).doesNotExist();
        // a crash after the commit: the .swap replaces the segment (old indexes are rebuilt)
        Files.copy(compactedDir.resolve(firstLog), partition.resolve(firstLog + ".swap"));
        log = open(Map.of(), compact(HOUR, 0, 0));
        List<Read> after = readAll(log);
        assertThat(after).doesNotContain(original.get(0));
        assertThat(after.get(after.size() - 1)).isEqualTo(original.get(original.size() - 1));
        assertThat(partition.resolve(firstLog + ".swap")).doesNotExist();
    }

    private static void copyDir(Path from, Path to) throws IOException {
        copyDir(from, to, false);
    }

    private static void copyDir(Path from, Path to, boolean replace) throws IOException {
        if (replace) {
            try (Stream<Path> s = Files.list(to)) {
                for (Path p : s.toList()) {
                    Files.delete(p);
                }
            }
        }
        try (Stream<Path> s = Files.list(from)) {
            for (Path p : s.toList()) {
                Files.copy(p, to.resolve(p.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }
}
