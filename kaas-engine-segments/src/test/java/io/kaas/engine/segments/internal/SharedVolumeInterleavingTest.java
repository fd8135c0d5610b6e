package io.kaas.engine.segments.internal;

import static io.kaas.engine.segments.internal.LogFixture.KEY;
import static io.kaas.engine.segments.internal.LogFixture.NOW;
import static io.kaas.engine.segments.internal.LogFixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.ProducedBatches;
import io.kaas.api.record.RecordBatches;
import io.kaas.api.storage.EngineContext;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.ProducerExpiration;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random interleavings of writers of one partition on one directory: appends (acks=all and acks=1, rolling every
 * three batches) by the current owner and by writers already taken over (paused brokers that resumed), takeovers by
 * a new broker at the next epoch after the owner crashed or closed the partition, and retention and compaction
 * passes by fenced writers. Whatever the order, the owner serves exactly the batches each writer appended while it
 * owned the partition, in order, at contiguous offsets, and so does a broker that takes over at the end.
 */
class SharedVolumeInterleavingTest {
    private static final Clock CLOCK = Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC);

    /** kind: 0 append by the owner, 1 append by a fenced writer, 2 takeover after a crash, 3 takeover after a close,
     *  4 retention and compaction by a fenced writer, 5 the owner restarts at its epoch (a clean stop, or a crash). */
    record Action(int kind, int writer, boolean durable) {
    }

    @Provide
    Arbitrary<List<Action>> actions() {
        Arbitrary<Action> one = Combinators.combine(Arbitraries.frequency(
                        net.jqwik.api.Tuple.of(5, 0), net.jqwik.api.Tuple.of(3, 1), net.jqwik.api.Tuple.of(1, 2),
                        net.jqwik.api.Tuple.of(1, 3), net.jqwik.api.Tuple.of(1, 4), net.jqwik.api.Tuple.of(1, 5)),
                Arbitraries.integers().between(0, 7), Arbitraries.of(true, false)).as(Action::new);
        return one.list().ofMinSize(5).ofMaxSize(30);
    }

    private static final class Writer {
        final SegmentEngine engine;
        final AtomicBoolean owns = new AtomicBoolean(true);
        final int epoch;
        SegmentPartitionLog log;

        Writer(Path dir, int epoch) throws IOException {
            this.epoch = epoch;
            this.engine = new SegmentEngine(new EngineContext(dir, PluginConfig.of(Map.of("deleted.segment.close.delay.ms",
                    "0", "retention.check.interval.ms", "3600000")), epoch, CLOCK, ProducerExpiration.KAFKA_DEFAULTS,
                    (key, e) -> owns.get()), IoHooks.NONE);
        }
    }

    private static ByteBuffer stamped(long ts) {
        return TestBatches.batch().timestamps(ts, 0).valueSize(60).build();
    }

    private static LogConfig config(boolean aggressive) {
        long segment = 3L * stamped(NOW).remaining();
        LogConfig d = LogConfig.defaults();
        return aggressive ? new LogConfig(segment, d.segmentMs(), 1, 1, d.maxMessageBytes(), d.flushMessages(), false, false)
                : LogFixture.config(segment);
    }

    @Property(tries = 50)
    void everyOwnerServesExactlyWhatOwnersWrote(@ForAll("actions") List<Action> actions) throws Exception {
        Path dir = Files.createTempDirectory("kaas-interleaving");
        List<Writer> writers = new ArrayList<>();
        try {
            List<Long> expected = new ArrayList<>(); // timestamps of the batches written by the owner of the time
            long ts = NOW;
            Writer owner = takeOver(dir, writers, null, false);
            for (Action a : actions) {
                ts++;
                List<Writer> fenced = writers.subList(0, writers.size() - 1);
                switch (a.kind()) {
                    case 0 -> {
                        append(owner, ts, a.durable());
                        expected.add(ts);
                    }
                    case 1 -> {
                        if (!fenced.isEmpty()) {
                            append(fenced.get(a.writer() % fenced.size()), ts, a.durable()); // never served
                        }
                    }
                    case 2, 3 -> owner = takeOver(dir, writers, owner, a.kind() == 3);
                    case 5 -> owner = restart(dir, writers, owner, a.durable());
                    default -> {
                        if (!fenced.isEmpty()) {
                            Writer w = fenced.get(a.writer() % fenced.size());
                            if (w.log != null) {
                                w.log.updateConfig(config(true));
                                w.engine.runRetentionPass();
                                w.engine.runCleanerPass();
                            }
                        }
                    }
                }
                assertThat(served(owner.log)).as("after %s", a).isEqualTo(expected);
            }
            Writer last = takeOver(dir, writers, owner, false);
            assertThat(served(last.log)).isEqualTo(expected);
            assertThat(last.log.offsets().logStartOffset()).isZero();
        } finally {
            for (Writer w : writers) {
                try {
                    w.engine.close();
                } catch (IOException ignored) {
                    // a fenced writer's close may fail: its temporary files were deleted by a successor
                }
            }
            try (Stream<Path> walk = Files.walk(dir)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** A new broker opens the partition at the next epoch; the owner before it is fenced (after a close if asked). */
    private static Writer takeOver(Path dir, List<Writer> writers, Writer owner, boolean closeFirst) throws IOException {
        if (owner != null) {
            if (closeFirst) {
                owner.engine.closePartition(KEY);
                owner.log = null;
            }
            owner.owns.set(false);
        }
        Writer w = new Writer(dir, writers.size() + 1);
        writers.add(w);
        w.log = (SegmentPartitionLog) w.engine.openPartition(KEY, config(false), w.epoch);
        return w;
    }

    /**
     * The owner's broker restarts and is given the partition again at the same epoch: after a clean stop, or after
     * a crash (its engine is abandoned, never used again, and closed at the end).
     */
    private static Writer restart(Path dir, List<Writer> writers, Writer owner, boolean clean) throws IOException {
        if (clean) {
            owner.engine.close();
        }
        owner.log = null;
        owner.owns.set(false);
        Writer again = new Writer(dir, owner.epoch);
        writers.set(writers.size() - 1, again);
        if (!clean) {
            writers.add(0, owner); // closed at the end; with no log it writes nothing when picked as a fenced writer
        }
        again.log = (SegmentPartitionLog) again.engine.openPartition(KEY, config(false), again.epoch);
        return again;
    }

    private static void append(Writer w, long ts, boolean durable) throws Exception {
        if (w.log == null) {
            return; // closed
        }
        w.log.append(ProducedBatches.validate(stamped(ts)), durable).get(10, TimeUnit.SECONDS);
    }

    /** The timestamps of the batches served from the log start, checking their offsets are contiguous. */
    private static List<Long> served(SegmentPartitionLog log) {
        byte[] data = bytes(log.read(log.offsets().logStartOffset(), Integer.MAX_VALUE, Long.MAX_VALUE, false));
        List<Long> out = new ArrayList<>();
        long next = log.offsets().logStartOffset();
        for (BatchHeader h : RecordBatches.headers(ByteBuffer.wrap(data))) {
            assertThat(h.baseOffset()).isEqualTo(next);
            next = h.nextOffset();
            out.add(h.maxTimestamp());
        }
        assertThat(next).isEqualTo(log.offsets().highWatermark());
        return out;
    }
}
