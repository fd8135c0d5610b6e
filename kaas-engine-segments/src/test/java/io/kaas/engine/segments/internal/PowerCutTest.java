package io.kaas.engine.segments.internal;

import static io.kaas.engine.segments.internal.LogFixture.append;
import static io.kaas.engine.segments.internal.TestBatches.batch;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.storage.AppendResult;
import io.kaas.api.storage.LogConfig;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The power-cut model: {@link IoHooks} report every segment fsync, so the test knows which prefix of each segment
 * file is durable. After each step of a workload (durable and non-durable appends from an idempotent producer and
 * others, rolls, DeleteRecords, a retention pass) the data directory is copied as a power cut would leave it: each
 * segment file cut back to its last fsynced size (in a second variant, with part of the unsynced tail left as
 * garbage), temp files gone. Every other file is one the engine replaced atomically with an fsynced rename and a
 * directory fsync, so it is durable as it stands. The engine must open each cut and hold every durably acknowledged
 * batch byte for byte, the persisted log start, and the producer state (a retry of the last acknowledged batch is
 * a duplicate; the next sequence is accepted).
 */
class PowerCutTest {
    private static final long PRODUCER = 42;

    @TempDir
    Path dataDir;
    @TempDir
    Path cuts;

    /** Durable size of each segment file: the size it had when an fsync that has since returned began. */
    static final class DurabilityModel implements IoHooks {
        final Map<Path, Long> pending = new ConcurrentHashMap<>();
        final Map<Path, Long> durable = new ConcurrentHashMap<>();

        @Override
        public void beforeForce(Path file) throws IOException {
            pending.put(file, Files.size(file));
        }

        @Override
        public void afterForce(Path file) {
            Long size = pending.remove(file);
            if (size != null) {
                durable.merge(file, size, Math::max);
            }
        }
    }

    /** A durably acknowledged batch: its offset range and the bytes the log must return for it. */
    record Acked(long baseOffset, byte[] bytes) {
    }

    @Test
    void everyDurableAcknowledgementSurvivesACutAtEveryStep() throws IOException {
        DurabilityModel model = new DurabilityModel();
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
                for (boolean garbage : new boolean[] {false, true}) {
                    Path cut = cut(model, cuts.resolve("step-" + step + (garbage ? "-garbage" : "")), garbage, random);
                    verify(cut, config, acked, deletedBefore, lastIdempotent, lastIdempotentOffset);
                    cutsChecked++;
                }
            }
        }
        assertThat(cutsChecked).isEqualTo(48);
    }

    /** Copies the data directory as a power cut now would leave it. */
    private Path cut(DurabilityModel model, Path target, boolean garbage, Random random) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(dataDir)) {
            files = walk.toList();
        }
        for (Path p : files) {
            Path dest = target.resolve(dataDir.relativize(p).toString());
            if (Files.isDirectory(p)) {
                Files.createDirectories(dest);
                continue;
            }
            String name = p.getFileName().toString();
            if (name.endsWith(".tmp")) {
                continue; // never renamed into place: its directory entry may not exist
            }
            byte[] content = Files.readAllBytes(p);
            if (name.endsWith(PartitionDirectory.LOG_SUFFIX)) {
                int durable = (int) Math.min(content.length, model.durable.getOrDefault(p, 0L));
                byte[] kept = Arrays.copyOf(content, durable);
                if (garbage && content.length > durable) {
                    int extra = 1 + random.nextInt(content.length - durable);
                    kept = Arrays.copyOf(content, durable + extra);
                    for (int i = durable + extra / 2; i < kept.length; i++) {
                        kept[i] = (byte) random.nextInt(); // a torn tail: part written, part garbage
                    }
                }
                content = kept;
            }
            Files.write(dest, content);
        }
        return target;
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
                int next = retry.getInt(53) + 3;
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
