package io.kaas.engine.segments.internal;

import static io.kaas.engine.segments.internal.LogFixture.KEY;
import static io.kaas.engine.segments.internal.LogFixture.NOW;
import static io.kaas.engine.segments.internal.LogFixture.append;
import static io.kaas.engine.segments.internal.LogFixture.bytes;
import static io.kaas.engine.segments.internal.TestBatches.batch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.RecordBatches;
import io.kaas.api.storage.EngineContext;
import io.kaas.api.storage.EpochStart;
import io.kaas.api.storage.FencedLeaderEpochException;
import io.kaas.api.storage.KafkaStorageException;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.ProducerExpiration;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several engines ("brokers") over one data directory, each writing a partition at its leader epoch: the pause model
 * (a writer frozen while another takes over, then resumed with writes in flight), takeovers of a directory written
 * before epochs, refusals of lower epochs, the epoch history, and a partition closed by one and opened by another.
 * Batches are told apart by their timestamps.
 */
class SharedVolumeTest {
    private static final Clock CLOCK = Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC);
    /** A's writes after B took over are stamped from here on. */
    private static final long LATE = NOW + 1_000_000;

    @TempDir
    Path dataDir;
    private final List<SegmentEngine> engines = new ArrayList<>();
    private int batchSize;

    @AfterEach
    void closeEngines() {
        for (SegmentEngine e : engines) {
            try {
                e.close();
            } catch (IOException ignored) {
                // a "crashed" engine's files were reopened by another meanwhile
            }
        }
    }

    private SegmentEngine broker(int id, AtomicBoolean owns) throws IOException {
        return broker(id, owns, Map.of());
    }

    private SegmentEngine broker(int id, AtomicBoolean owns, Map<String, String> settings) throws IOException {
        Map<String, String> all = new java.util.HashMap<>(settings);
        all.put("deleted.segment.close.delay.ms", "0");
        SegmentEngine engine = new SegmentEngine(new EngineContext(dataDir, PluginConfig.of(all), id, CLOCK,
                ProducerExpiration.KAFKA_DEFAULTS, (key, epoch) -> owns.get()), IoHooks.NONE);
        engines.add(engine);
        return engine;
    }

    private SegmentEngine broker(int id) throws IOException {
        return broker(id, new AtomicBoolean(true));
    }

    private static ByteBuffer stamped(long ts) {
        return batch().timestamps(ts, 0).valueSize(100).build();
    }

    /** Three batches per segment. */
    private LogConfig config() {
        if (batchSize == 0) {
            batchSize = stamped(NOW).remaining();
        }
        return LogFixture.config(3L * batchSize);
    }

    private static SegmentPartitionLog open(SegmentEngine engine, LogConfig config, int epoch) throws IOException {
        return (SegmentPartitionLog) engine.openPartition(KEY, config, epoch);
    }

    /** Appends one batch stamped {@code ts}; returns its offset. */
    private static long write(SegmentPartitionLog log, long ts, boolean durable) {
        return append(log, stamped(ts), durable).baseOffset();
    }

    /** Every batch served from offset 0 on, as (base offset, timestamp). */
    private static Map<Long, Long> served(SegmentPartitionLog log) {
        Map<Long, Long> out = new TreeMap<>();
        long from = log.offsets().logStartOffset();
        byte[] data = bytes(log.read(from, Integer.MAX_VALUE, Long.MAX_VALUE, false));
        for (BatchHeader h : RecordBatches.headers(ByteBuffer.wrap(data))) {
            out.put(h.baseOffset(), h.maxTimestamp());
        }
        return out;
    }

    private Path partitionDir() {
        return PartitionDirectory.pathOf(dataDir, KEY);
    }

    /** Name to content digest of every file of {@code epoch} in the partition directory. */
    private Map<String, String> filesOfEpoch(int epoch) throws Exception {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> files = Files.list(partitionDir())) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String name = p.getFileName().toString();
                boolean ofEpoch = SegmentFile.parse(name).map(f -> f.epoch() == epoch).orElse(false)
                        || MetadataFile.parse(name).map(n -> n.epoch() == epoch).orElse(false);
                if (ofEpoch) {
                    out.put(name, HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p))));
                }
            }
        }
        return out;
    }

    private List<String> fileNames() throws IOException {
        try (Stream<Path> files = Files.list(partitionDir())) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aFrozenWriterThatResumesAfterATakeoverIsNeverServedAndTouchesNothingOfItsSuccessor() throws Exception {
        AtomicBoolean aOwns = new AtomicBoolean(true);
        SegmentPartitionLog a = open(broker(1, aOwns), config(), 1);
        Map<Long, Long> expected = new TreeMap<>();
        for (int i = 0; i < 7; i++) {
            expected.put(write(a, NOW + i, i % 2 == 0), NOW + i); // acks=all and acks=1 mixed
        }
        write(a, NOW + 7, true);
        expected.put(7L, NOW + 7);

        SegmentPartitionLog b = open(broker(2), config(), 2); // A is frozen: not closed
        assertThat(b.offsets().highWatermark()).isEqualTo(8);
        assertThat(b.epochs()).containsExactly(new EpochStart(1, 0), new EpochStart(2, 8));
        assertThat(served(b)).isEqualTo(expected);
        Map<String, String> bFilesBefore = filesOfEpoch(2);
        assertThat(bFilesBefore).containsKeys("00000002-00000000000000000008.log", "manifest.00000002.json",
                "leader-epoch-checkpoint.00000002", "producer-state.00000002.snapshot", "recovery-checkpoint.00000002.json");

        // A resumes with writes in flight: appends into its active segment, rolls, makes new segments, then runs
        // retention and compaction with a fence that now says no
        aOwns.set(false);
        for (int i = 0; i < 7; i++) {
            write(a, LATE + i, true);
        }
        a.updateConfig(new LogConfig(3L * batchSize, LogConfig.defaults().segmentMs(), 1, 1, LogConfig.defaults().maxMessageBytes(),
                1, false, false));
        SegmentEngine aEngine = engines.get(0);
        assertThat(aEngine.runRetentionPass()).isZero();
        assertThat(aEngine.runCleanerPass()).isZero();
        assertThat(a.deleteRecordsBefore(5)).failsWithin(java.time.Duration.ofSeconds(5))
                .withThrowableOfType(java.util.concurrent.ExecutionException.class)
                .withCauseInstanceOf(FencedLeaderEpochException.class);
        assertThat(fileNames()).contains("00000001-00000000000000000000.log", "00000001-00000000000000000003.log");
        assertThat(filesOfEpoch(2)).isEqualTo(bFilesBefore);

        // B writes on; it serves A's records from before the takeover and its own, never A's late ones
        for (int i = 0; i < 4; i++) {
            long offset = write(b, NOW + 100 + i, true);
            expected.put(offset, NOW + 100 + i);
        }
        assertThat(expected.keySet()).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L);
        assertThat(served(b)).isEqualTo(expected);

        // B "crashes" (never closed); C takes over at epoch 3 and sees the same, and A's late bytes still nowhere
        write(a, LATE + 50, true);
        SegmentPartitionLog c = open(broker(3), config(), 3);
        assertThat(c.offsets().highWatermark()).isEqualTo(12);
        assertThat(served(c)).isEqualTo(expected);
        assertThat(c.epochs()).containsExactly(new EpochStart(1, 0), new EpochStart(2, 8), new EpochStart(3, 12));
        long next = write(c, NOW + 200, true);
        assertThat(next).isEqualTo(12);
        expected.put(12L, NOW + 200);
        assertThat(served(c)).isEqualTo(expected);
        assertThat(fileNames()).noneMatch(n -> n.startsWith("manifest.00000001") || n.startsWith("manifest.00000002"));
    }

    @Test
    void aFencedWritersLateRollNeverCountsEvenAfterTheLogStartPassedTheNextEpochsStart() throws Exception {
        AtomicBoolean aOwns = new AtomicBoolean(true);
        SegmentPartitionLog a = open(broker(1, aOwns), config(), 1);
        for (int i = 0; i < 5; i++) {
            write(a, NOW + i, true);
        }
        SegmentPartitionLog b = open(broker(2), config(), 2);
        aOwns.set(false);
        for (int i = 0; i < 4; i++) {
            write(a, LATE + i, true); // offsets 5..8 in A's files, rolling into 00000001-...06.log
        }
        assertThat(fileNames()).contains("00000001-00000000000000000006.log");
        Map<Long, Long> expected = new TreeMap<>();
        for (int i = 0; i < 5; i++) {
            expected.put(write(b, NOW + 100 + i, true), NOW + 100 + i);
        }
        LogFixture.join(b.deleteRecordsBefore(7));
        expected.keySet().removeIf(o -> o < 7);

        SegmentPartitionLog c = open(broker(3), config(), 3);

        assertThat(c.offsets().logStartOffset()).isEqualTo(7);
        assertThat(served(c)).isEqualTo(expected);
        assertThat(c.epochs()).containsExactly(new EpochStart(2, 7), new EpochStart(3, 10));
        assertThat(fileNames()).doesNotContain("00000001-00000000000000000006.log");
    }

    @Test
    void aTakeoverRightAfterARollThatLeftAnEmptyNewSegmentStartsAtTheEndOfTheSegmentBefore() throws Exception {
        SegmentPartitionLog a = open(broker(1), CrashRecoveryTest.NO_FLUSH, 1);
        for (int i = 0; i < 3; i++) {
            write(a, NOW + i, false); // never fsynced: A's recovery checkpoint is the one at open, at position 0
        }
        // the roll created the next segment and stopped before it sealed the full one: a torn batch at the end
        Path full = partitionDir().resolve("00000001-00000000000000000000.log");
        ByteBuffer torn = stamped(NOW + 3);
        torn.limit(20);
        try (FileChannel ch = FileChannel.open(full, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ch.write(torn);
        }
        Files.createFile(partitionDir().resolve("00000001-00000000000000000004.log"));

        SegmentPartitionLog b = open(broker(2), CrashRecoveryTest.NO_FLUSH, 2);

        assertThat(b.offsets().highWatermark()).isEqualTo(3);
        assertThat(b.epochs()).containsExactly(new EpochStart(1, 0), new EpochStart(2, 3));
        assertThat(b.takeoverScannedBytes()).isEqualTo(3L * stamped(NOW).remaining()); // the segment before, validated
        assertThat(write(b, NOW + 10, true)).isEqualTo(3);
        assertThat(served(b)).containsExactly(Map.entry(0L, NOW), Map.entry(1L, NOW + 1), Map.entry(2L, NOW + 2),
                Map.entry(3L, NOW + 10));
        assertThat(fileNames()).doesNotContain("00000001-00000000000000000004.log");
    }

    @Test
    void aCorruptEpochHistoryFailsTheOpenNamingTheFileAndChangesNothing() throws Exception {
        SegmentPartitionLog b = open(broker(1), config(), 2);
        write(b, NOW, true);
        Files.writeString(partitionDir().resolve("leader-epoch-checkpoint.00000002"), "0\n2\n1 0\n");
        List<String> files = fileNames();

        assertThatThrownBy(() -> open(broker(2), config(), 3)).isInstanceOf(IOException.class)
                .hasMessageContaining("corrupt").hasMessageContaining("leader-epoch-checkpoint.00000002")
                .hasMessageContaining("expected 2 entries");
        assertThat(fileNames()).isEqualTo(files);
    }

    @Test
    void fileNamesCarryTheirEpochAndOthersAreNotTakenForThem() {
        assertThat(MetadataFile.MANIFEST.name(0)).isEqualTo("manifest.json");
        assertThat(MetadataFile.MANIFEST.name(42)).isEqualTo("manifest.0000002a.json");
        assertThat(MetadataFile.parse("producer-state.0000002a.snapshot.tmp"))
                .contains(new MetadataFile.Named(MetadataFile.PRODUCER_SNAPSHOT, 42, true));
        assertThat(MetadataFile.parse("clean-shutdown")).contains(new MetadataFile.Named(MetadataFile.CLEAN_SHUTDOWN, 0, false));
        assertThat(MetadataFile.parse("manifest.zzzzzzzz.json")).isEmpty();
        assertThat(MetadataFile.parse("manifest.0002a.json")).isEmpty();
        assertThat(MetadataFile.parse("partition.json")).isEmpty();
        assertThat(SegmentFile.parse("0000002a-00000000000000000100.timeindex")).contains(new SegmentFile(42, 100));
        assertThat(new SegmentFile(42, 100).stem()).isEqualTo("0000002a-00000000000000000100");
        assertThat(SegmentFile.parse("0000002a_00000000000000000100.log")).isEmpty();
        assertThat(SegmentFile.parse("0000002a-0000000000000000010x.log")).isEmpty();
        assertThat(SegmentFile.parse("short.log")).isEmpty();
    }

    @Test
    void theSuccessorKnowsTheProducersOfWhatItServesAndNotOfAFencedWritersLateBatches() throws Exception {
        AtomicBoolean aOwns = new AtomicBoolean(true);
        SegmentPartitionLog a = open(broker(1, aOwns), config(), 1);
        append(a, batch().timestamps(NOW, 0, 0).producer(7, 0, 0).build(), true); // offsets 0-1, sequences 0-1
        append(a, batch().timestamps(NOW, 0).valueSize(100).build(), true);
        append(a, batch().timestamps(NOW, 0).valueSize(100).build(), true);
        append(a, batch().timestamps(NOW, 0).valueSize(100).build(), true); // A rolled: its snapshot is as of 2
        SegmentPartitionLog b = open(broker(2), config(), 2);
        aOwns.set(false);
        // A resumes with the producer's next batch in flight: it lands in A's files, is never acknowledged, and A
        // rolls again (a late producer snapshot of epoch 1 that holds it)
        append(a, batch().timestamps(LATE, 0).producer(7, 0, 2).build(), true);
        for (int i = 0; i < 3; i++) {
            write(a, LATE + 1 + i, true);
        }

        // the producer retries its first batch on B: a duplicate, answered with its offsets
        assertThat(append(b, batch().timestamps(NOW, 0, 0).producer(7, 0, 0).build(), true).baseOffset()).isZero();
        assertThat(b.offsets().highWatermark()).isEqualTo(5);
        // and the batch A never acknowledged: new on B
        assertThat(append(b, batch().timestamps(LATE, 0).producer(7, 0, 2).build(), true).baseOffset()).isEqualTo(5);
        SegmentPartitionLog c = open(broker(3), config(), 3);
        assertThat(c.producers()).singleElement().satisfies(p -> assertThat(p.producerId()).isEqualTo(7));
        assertThat(append(c, batch().timestamps(LATE, 0).producer(7, 0, 2).build(), true).baseOffset()).isEqualTo(5);
        assertThat(c.offsets().highWatermark()).isEqualTo(6);
    }

    @Test
    void aTakeoverAfterACrashValidatesOnlyWhatFollowsThePredecessorsRecoveryCheckpoint() throws Exception {
        SegmentPartitionLog a = open(broker(1, new AtomicBoolean(true), CrashRecoveryTest.EAGER_CHECKPOINTS),
                CrashRecoveryTest.NO_FLUSH, 1);
        for (int i = 0; i < 5; i++) {
            write(a, NOW + i, true); // each fsync is followed by a recovery checkpoint
        }
        Path checkpoint = partitionDir().resolve("recovery-checkpoint.00000001.json");
        org.awaitility.Awaitility.await("A's checkpoint at 5").atMost(java.time.Duration.ofSeconds(5))
                .pollInterval(java.time.Duration.ofMillis(2))
                .until(() -> Files.exists(checkpoint)
                        && RecoveryCheckpoint.fromJson(Files.readString(checkpoint)).highWatermark() == 5);
        write(a, NOW + 5, false);
        write(a, NOW + 6, false); // not fsynced (flush.messages unbounded): after the checkpoint
        int size = stamped(NOW).remaining();

        SegmentPartitionLog b = open(broker(2), CrashRecoveryTest.NO_FLUSH, 2); // A crashed: never closed

        assertThat(b.takeoverScannedBytes()).isEqualTo(2L * size);
        assertThat(b.offsets().highWatermark()).isEqualTo(7);
        assertThat(b.recovery().scannedBytes()).isZero();
    }

    @Test
    void aTornTailOfThePredecessorIsLeftOutNotCut() throws Exception {
        SegmentPartitionLog a = open(broker(1), config(), 1);
        write(a, NOW, true);
        write(a, NOW + 1, true);
        Path active = partitionDir().resolve("00000001-00000000000000000000.log");
        ByteBuffer torn = stamped(NOW + 2);
        torn.limit(torn.limit() - 7);
        try (FileChannel ch = FileChannel.open(active, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ch.write(torn);
        }
        long sizeWithTornTail = Files.size(active);

        SegmentPartitionLog b = open(broker(2), config(), 2);

        assertThat(b.offsets().highWatermark()).isEqualTo(2);
        assertThat(Files.size(active)).isEqualTo(sizeWithTornTail);
        assertThat(write(b, NOW + 3, true)).isEqualTo(2);
        assertThat(served(b)).containsExactly(Map.entry(0L, NOW), Map.entry(1L, NOW + 1), Map.entry(2L, NOW + 3));
    }

    @Test
    void aStrayBatchAfterThePredecessorsDataIsNeverServedNotEvenAfterTheSuccessorRestarts() throws Exception {
        SegmentPartitionLog a = open(broker(1), config(), 1);
        write(a, NOW, true);
        write(a, NOW + 1, true);
        // a whole, CRC-valid batch whose offsets step back (its base offset was never assigned)
        try (FileChannel ch = FileChannel.open(partitionDir().resolve("00000001-00000000000000000000.log"),
                StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ch.write(stamped(LATE));
        }
        SegmentEngine bEngine = broker(2);
        SegmentPartitionLog b = open(bEngine, config(), 2);
        assertThat(b.offsets().highWatermark()).isEqualTo(2);
        write(b, NOW + 2, true);
        Map<Long, Long> expected = Map.of(0L, NOW, 1L, NOW + 1, 2L, NOW + 2);
        assertThat(served(b)).isEqualTo(expected);

        bEngine.close(); // B restarts at its epoch: the earlier epoch's segment is bounded again, by offsets
        SegmentPartitionLog restarted = open(broker(2), config(), 2);

        assertThat(served(restarted)).isEqualTo(expected);
        assertThat(restarted.recovery().scannedBytes()).isZero();
    }

    @Test
    void aDirectoryWrittenBeforeEpochsOpensUnchangedAtEpochOne() throws Exception {
        SegmentEngine alone = broker(1);
        SegmentPartitionLog old = (SegmentPartitionLog) alone.openPartition(KEY, config());
        for (int i = 0; i < 5; i++) {
            write(old, NOW + i, true);
        }
        assertThat(old.leaderEpoch()).isZero();
        assertThat(old.epochs()).containsExactly(new EpochStart(0, 0));
        Map<Long, Long> before = served(old);
        alone.close();
        assertThat(fileNames()).contains("manifest.json", "00000000-00000000000000000000.log")
                .noneMatch(n -> n.startsWith("leader-epoch-checkpoint"));

        SegmentPartitionLog log = open(broker(2), config(), 1);

        assertThat(served(log)).isEqualTo(before);
        assertThat(log.leaderEpoch()).isEqualTo(1);
        assertThat(log.epochs()).containsExactly(new EpochStart(0, 0), new EpochStart(1, 5));
        assertThat(log.takeoverScannedBytes()).isZero(); // a clean stop's checkpoint covers the whole segment
        assertThat(write(log, NOW + 10, true)).isEqualTo(5);
        assertThat(fileNames()).contains("00000000-00000000000000000000.log", "00000000-00000000000000000003.log",
                "00000001-00000000000000000005.log", "manifest.00000001.json", "leader-epoch-checkpoint.00000001")
                .doesNotContain("manifest.json", "recovery-checkpoint.json", "producer-state.snapshot");
    }

    @Test
    void anOpenAtALowerEpochThanTheDirectorysIsRefusedAndChangesNothing() throws Exception {
        SegmentPartitionLog b = open(broker(1), config(), 2);
        write(b, NOW, true);
        List<String> files = fileNames();

        SegmentEngine other = broker(2);
        assertThatThrownBy(() -> open(other, config(), 1)).isInstanceOf(FencedLeaderEpochException.class)
                .hasMessageContaining("leader epoch 2").hasMessageContaining("epoch 1");
        assertThatThrownBy(() -> other.openPartition(KEY, config())).isInstanceOf(FencedLeaderEpochException.class);
        assertThatThrownBy(() -> open(engines.get(0), config(), 1)).isInstanceOf(FencedLeaderEpochException.class);
        assertThat(fileNames()).isEqualTo(files);
        assertThat(open(engines.get(0), config(), 2)).isSameAs(b);
    }

    @Test
    void epochsAfterThreeTakeoversAndAfterTheLogStartPassedTheFirst() throws Exception {
        long end = 0;
        SegmentPartitionLog log = null;
        for (int epoch = 1; epoch <= 3; epoch++) {
            log = open(broker(epoch), config(), epoch);
            for (int i = 0; i < epoch + 1; i++) {
                end = write(log, NOW + 10L * epoch + i, true) + 1;
            }
        }
        assertThat(end).isEqualTo(9);
        assertThat(log.epochs()).containsExactly(new EpochStart(1, 0), new EpochStart(2, 2), new EpochStart(3, 5));
        SegmentPartitionLog fourth = open(broker(4), config(), 4);
        assertThat(fourth.epochs()).containsExactly(new EpochStart(1, 0), new EpochStart(2, 2), new EpochStart(3, 5),
                new EpochStart(4, 9));

        LogFixture.join(fourth.deleteRecordsBefore(3));
        assertThat(fourth.epochs()).containsExactly(new EpochStart(2, 3), new EpochStart(3, 5), new EpochStart(4, 9));
        SegmentPartitionLog fifth = open(broker(5), config(), 5);
        assertThat(fifth.epochs()).containsExactly(new EpochStart(2, 3), new EpochStart(3, 5), new EpochStart(4, 9),
                new EpochStart(5, 9));
        assertThat(served(fifth).keySet()).containsExactly(3L, 4L, 5L, 6L, 7L, 8L);
    }

    @Test
    void aClosedPartitionIsOpenedByAnotherBrokerWithoutAScanAndRefusesAppendsAfterTheClose() throws Exception {
        SegmentEngine first = broker(1);
        SegmentPartitionLog a = open(first, config(), 1);
        for (int i = 0; i < 5; i++) {
            write(a, NOW + i, false); // acks=1: made durable by the close
        }
        Map<Long, Long> before = served(a);
        first.closePartition(KEY);
        first.closePartition(KEY); // not open: a no-op
        assertThatThrownBy(() -> write(a, NOW + 9, true)).isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(KafkaStorageException.class);

        SegmentPartitionLog b = open(broker(2), config(), 2);

        assertThat(b.takeoverScannedBytes()).isZero();
        assertThat(served(b)).isEqualTo(before);
        assertThat(write(b, NOW + 10, true)).isEqualTo(5);
        SegmentPartitionLog again = open(first, config(), 3); // moved back to the first broker
        assertThat(again.offsets().highWatermark()).isEqualTo(6);
        assertThat(again.epochs()).extracting(EpochStart::epoch).containsExactly(1, 2, 3);
    }

    @Test
    void reopeningAtAHigherEpochInTheSameEngineReopensTheLog() throws Exception {
        SegmentEngine engine = broker(1);
        SegmentPartitionLog at1 = open(engine, config(), 1);
        write(at1, NOW, true);
        SegmentPartitionLog at2 = open(engine, config(), 2);
        assertThat(at2).isNotSameAs(at1);
        assertThatThrownBy(() -> write(at1, NOW + 1, true)).isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(KafkaStorageException.class);
        assertThat(write(at2, NOW + 2, true)).isEqualTo(1);
        assertThat(at2.epochs()).containsExactly(new EpochStart(1, 0), new EpochStart(2, 1));
    }
}
