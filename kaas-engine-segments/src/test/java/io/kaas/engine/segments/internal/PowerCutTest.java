package io.kaas.engine.segments.internal;

import static io.kaas.engine.segments.internal.LogFixture.append;
import static io.kaas.engine.segments.internal.TestBatches.batch;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.record.RecordBatches;
import io.kaas.api.storage.AppendResult;
import io.kaas.api.storage.LogConfig;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The power-cut model ({@link PowerCutModel}): {@link IoHooks} report every fsync of a file, every create, rename
 * and delete and every directory fsync, so the test knows which bytes of each file and which directory entries
 * are durable. After each step of a workload (durable and non-durable appends from an idempotent producer and
 * others, rolls, DeleteRecords, a retention pass, producer snapshots, manifest and checkpoint replacements) the
 * data directory is rebuilt as a power cut would leave it: only the entries each directory had at its last fsync
 * (a file created or renamed into place since is gone, a name renamed or deleted away since is back with its old
 * durable content), each file cut back to the content of its last fsync (in a second variant, segment logs keep
 * part of their unsynced tail, half garbage). A compaction pass is cut after every single event. The engine must
 * open each cut and hold every durably acknowledged batch byte for byte, the log start a completed DeleteRecords
 * promised, and the producer state (a retry of the last acknowledged batch is a duplicate; the next sequence is
 * accepted).
 */
class PowerCutTest {
    private static final long PRODUCER = 42;

    @TempDir
    Path dataDir;
    @TempDir
    Path cuts;

    /** A durably acknowledged batch: its offset range and the bytes the log must return for it. */
    record Acked(long baseOffset, byte[] bytes) {
    }

    @Test
    void everyDurableAcknowledgementSurvivesACutAtEveryStep() throws IOException {
        PowerCutModel model = new PowerCutModel(dataDir);
        Random random = new Random(7);
        int batchSize = batch().records(3).valueSize(50).producer(PRODUCER, 0, 0).build().remaining();
        LogConfig config = LogFixture.config(3L * batchSize);
        List<Acked> acked = new ArrayList<>();
        long deletedBefore = 0;
        int sequence = 0;
        ByteBuffer lastIdempotent = null;
        long lastIdempotentOffset = -1;
        int cutsChecked = 0;
        try (SegmentEngine engine = LogFixture.engine(dataDir, model, Map.of(), new LogFixture.MutableClock(LogFixture.NOW))) {
            SegmentPartitionLog log = LogFixture.open(engine, config);
            for (int step = 0; step < 24; step++) {
                int kind = random.nextInt(6);
                if (kind <= 2) {
                    ByteBuffer b = batch().records(3).valueSize(50).producer(PRODUCER, 0, sequence).build();
                    ByteBuffer copy = ByteBuffer.wrap(LogFixture.bytes(b));
                    AppendResult r = append(log, b, true);
                    acked.add(new Acked(r.baseOffset(), LogFixture.bytes(b.rewind())));
                    lastIdempotent = copy;
                    lastIdempotentOffset = r.baseOffset();
                    sequence += 3;
                } else if (kind == 3) {
                    append(log, batch().records(2).valueSize(80).build(), false); // acks=1: may be lost
                } else if (kind == 4 && !acked.isEmpty()) {
                    long target = acked.get(acked.size() / 2).baseOffset();
                    deletedBefore = Math.max(deletedBefore, LogFixture.join(log.deleteRecordsBefore(target)));
                } else {
                    engine.runRetentionPass();
                }
                assertThat(model.untracked()).as("operations the hooks did not report").isEmpty();
                assertThat(model.mismatches()).as("model vs disk after step %d", step).isEmpty();
                for (boolean garbage : new boolean[] {false, true}) {
                    Path cut = PowerCutModel.materialize(model.image(garbage ? random : null),
                            cuts.resolve("step-" + step + (garbage ? "-garbage" : "")));
                    verify(cut, config, acked, deletedBefore, lastIdempotent, lastIdempotentOffset);
                    cutsChecked++;
                }
            }
        }
        assertThat(cutsChecked).isEqualTo(48);
        assertThat(model.directoryFsyncs()).isGreaterThan(24);
    }

    @Test
    void aCompactionPassSurvivesACutAfterEveryEvent() throws IOException {
        PowerCutModel model = new PowerCutModel(dataDir);
        LogConfig config = CompactionTest.compact(3_600_000L, 0, 0); // segment.bytes=1: one batch per segment
        List<KeyedBatches.Read> written = new ArrayList<>();
        int batches = 8;
        ByteBuffer last = null;
        try (SegmentEngine engine = LogFixture.engine(dataDir, model, Map.of(), new LogFixture.MutableClock(LogFixture.NOW))) {
            SegmentPartitionLog log = LogFixture.open(engine, config);
            for (int i = 0; i < batches; i++) {
                KeyedBatches.KV kv = KeyedBatches.kv("k" + (i % 3), "v" + i);
                ByteBuffer b = KeyedBatches.batch(LogFixture.NOW, 0, PRODUCER, (short) 0, i, kv);
                last = ByteBuffer.wrap(LogFixture.bytes(b));
                assertThat(append(log, b, true).baseOffset()).isEqualTo(i);
                written.add(new KeyedBatches.Read(i, kv.key(), kv.value()));
            }
            model.captureEveryEvent(true);
            assertThat(engine.runCleanerPass()).isGreaterThan(0);
            model.captureEveryEvent(false);
            List<Map<String, byte[]>> images = model.takeCaptured();
            images.add(model.image(null));
            assertThat(model.untracked()).isEmpty();
            assertThat(model.mismatches()).isEmpty();
            Set<Map<String, String>> seen = new HashSet<>();
            int checked = 0;
            for (Map<String, byte[]> image : images) {
                if (!seen.add(fingerprint(image))) {
                    continue; // the event did not change what a cut keeps
                }
                Path cut = PowerCutModel.materialize(image, cuts.resolve("compaction-" + checked++));
                verifyCompacted(cut, config, written, batches, last);
            }
            assertThat(checked).isGreaterThan(3);
        }
    }

    private static Map<String, String> fingerprint(Map<String, byte[]> image) {
        Map<String, String> f = new java.util.TreeMap<>();
        image.forEach((k, v) -> f.put(k, v == null ? "dir" : Arrays.hashCode(v) + ":" + v.length));
        return f;
    }

    /** Compacted or not, every key's latest record is there at its offset, nothing else is invented. */
    private static void verifyCompacted(Path cut, LogConfig config, List<KeyedBatches.Read> written, int end, ByteBuffer last)
            throws IOException {
        try (SegmentEngine engine = LogFixture.engine(cut)) {
            SegmentPartitionLog log = LogFixture.open(engine, config);
            assertThat(log.offsets().logStartOffset()).as("log start in %s", cut).isZero();
            assertThat(log.offsets().highWatermark()).as("log end in %s", cut).isEqualTo(end);
            List<KeyedBatches.Read> read = KeyedBatches.decode(LogFixture.bytes(log.read(0, Integer.MAX_VALUE, Long.MAX_VALUE, true)));
            assertThat(written).as("records in %s", cut).containsAll(read);
            assertThat(read).as("latest per key in %s", cut).containsAll(KeyedBatches.latest(written).values());
            assertThat(append(log, ByteBuffer.wrap(LogFixture.bytes(last)), true).baseOffset())
                    .as("retry of the last batch in %s", cut).isEqualTo(end - 1);
            assertThat(append(log, KeyedBatches.batch(LogFixture.NOW, 0, PRODUCER, (short) 0, end,
                    KeyedBatches.kv("k0", "next")), true).baseOffset()).isEqualTo(end);
        }
        deleteRecursively(cut);
    }

    private static void verify(Path cut, LogConfig config, List<Acked> acked, long deletedBefore, ByteBuffer lastIdempotent,
                               long lastIdempotentOffset) throws IOException {
        try (SegmentEngine engine = LogFixture.engine(cut)) {
            SegmentPartitionLog log = LogFixture.open(engine, config);
            assertThat(log.offsets().logStartOffset()).as("log start in %s", cut).isEqualTo(deletedBefore);
            for (Acked a : acked) {
                if (a.baseOffset() < deletedBefore) {
                    continue;
                }
                byte[] read = LogFixture.bytes(log.read(a.baseOffset(), a.bytes().length, Long.MAX_VALUE, true));
                assertThat(Arrays.copyOf(read, a.bytes().length)).as("batch at %d in %s", a.baseOffset(), cut)
                        .isEqualTo(a.bytes());
            }
            if (lastIdempotent != null) {
                ByteBuffer retry = ByteBuffer.wrap(LogFixture.bytes(lastIdempotent));
                assertThat(append(log, retry, true).baseOffset()).as("retry of the last acknowledged batch in %s", cut)
                        .isEqualTo(lastIdempotentOffset);
                int next = retry.getInt(RecordBatches.BASE_SEQUENCE) + 3;
                long end = log.offsets().highWatermark();
                assertThat(append(log, batch().records(1).producer(PRODUCER, 0, next).build(), true).baseOffset())
                        .isEqualTo(end);
            }
        }
        deleteRecursively(cut);
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

}
