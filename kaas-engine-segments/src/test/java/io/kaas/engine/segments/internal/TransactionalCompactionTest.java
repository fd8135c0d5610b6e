package io.kaas.engine.segments.internal;

import static io.kaas.engine.segments.internal.KeyedBatches.batch;
import static io.kaas.engine.segments.internal.KeyedBatches.kv;
import static io.kaas.engine.segments.internal.LogFixture.append;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.RecordBatches;
import io.kaas.api.storage.AbortedTransaction;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.ProducerExpiration;
import io.kaas.engine.segments.internal.KeyedBatches.Read;
import io.kaas.plugin.tck.TestBatches;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction of transactional data, Kafka's rules: aborted records are dropped and never shadow a committed record of
 * their key; a marker stays while a batch of its transaction stays, and goes only after {@code delete.retention.ms}
 * once its data is gone (then its aborted range goes too, also across a crash); the marker a still active producer
 * wrote last stays for its epoch. Segments hold several batches here (rolled by hand), so a marker in the middle of
 * one can go.
 */
class TransactionalCompactionTest {
    private static final long HOUR = 3_600_000L;
    private static final long P1 = 21L;
    private static final long P2 = 22L;

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

    private static LogConfig config() {
        return LogFixture.config(1 << 20).withCleanup(true, false, HOUR, 0, Long.MAX_VALUE, 0);
    }

    private SegmentPartitionLog open() throws IOException {
        engine = LogFixture.engine(dataDir, IoHooks.NONE, Map.of(), clock);
        return LogFixture.open(engine, config());
    }

    private static void roll(SegmentPartitionLog log) {
        log.lock.lock();
        try {
            log.rollLocked();
        } finally {
            log.lock.unlock();
        }
    }

    /** Transactional data of producer {@code pid} without sequences, at timestamp 1000 (long ago). */
    private static ByteBuffer txn(long pid, String key, String value) {
        return TestBatches.batch().record(key, value).producer(pid, 0, -1).transactional().build();
    }

    private static ByteBuffer marker(long pid, boolean commit) {
        return TestBatches.controlMarker(pid, 0, commit).build();
    }

    private long now() {
        return clock.millis();
    }

    /** Each stored batch from the log start: base offset and kind. */
    private static List<String> kinds(SegmentPartitionLog log) throws IOException {
        List<String> kinds = new ArrayList<>();
        byte[] bytes = LogFixture.bytes(log.read(log.offsets().logStartOffset(), Integer.MAX_VALUE, Long.MAX_VALUE, true));
        for (BatchHeader h : RecordBatches.headers(ByteBuffer.wrap(bytes))) {
            kinds.add(h.baseOffset() + (h.isControl() ? " marker" : h.recordCount() == 0 ? " empty" : " data"));
        }
        return kinds;
    }

    private static List<Read> records(SegmentPartitionLog log) throws IOException {
        List<Read> out = new ArrayList<>();
        for (Read r : KeyedBatches.decode(LogFixture.bytes(log.read(log.offsets().logStartOffset(), Integer.MAX_VALUE,
                Long.MAX_VALUE, true)))) {
            if (r.key() != null && !r.key().isEmpty() && r.key().charAt(0) >= 'a') { // markers' keys are binary
                out.add(r);
            }
        }
        return out;
    }

    @Test
    void abortedRecordsAreDroppedNeverShadowTheCommittedValueAndTheirMarkerGoesTwoPassesLater() throws IOException {
        SegmentPartitionLog log = open();
        append(log, batch(now(), 0, kv("k", "committed")), false);      // 0
        append(log, txn(P1, "k", "aborted"), false);                      // 1
        append(log, txn(P1, "j", "aborted-too"), false);                  // 2
        append(log, marker(P1, false), false);                            // 3: ABORT [1, 3]
        append(log, batch(now(), 0, kv("x", "1")), false);                // 4
        roll(log);
        append(log, batch(now(), 0, kv("tail", "t")), false);             // 5, active
        assertThat(log.abortedTransactions(0, 6)).containsExactly(new AbortedTransaction(P1, 1, 3));

        assertThat(engine.runCleanerPass()).isEqualTo(1);
        assertThat(kinds(log)).as("the aborted batches are gone, their marker stays this pass")
                .containsExactly("0 data", "3 marker", "4 data", "5 data");
        assertThat(records(log)).containsExactly(new Read(0, "k", "committed"), new Read(4, "x", "1"),
                new Read(5, "tail", "t"));
        assertThat(log.abortedTransactions(0, 6)).containsExactly(new AbortedTransaction(P1, 1, 3));

        engine.runCleanerPass(); // finds the marker without data: delete.retention.ms starts
        assertThat(kinds(log)).contains("3 marker");
        clock.advance(HOUR - 1);
        engine.runCleanerPass();
        assertThat(kinds(log)).as("delete.retention.ms has not passed").contains("3 marker");
        clock.advance(2);
        assertThat(engine.runCleanerPass()).isEqualTo(1);
        assertThat(kinds(log)).containsExactly("0 data", "4 data", "5 data");
        assertThat(log.abortedTransactions(0, 6)).as("the range goes with its marker").isEmpty();
        assertThat(log.offsets().lastStableOffset()).isEqualTo(6);

        engine = LogFixture.engine(dataDir, IoHooks.NONE, Map.of(), clock); // a crash: the old engine is dropped
        SegmentPartitionLog reopened = LogFixture.open(engine, config());
        assertThat(reopened.recovery().cleanShutdown()).isFalse();
        assertThat(reopened.abortedTransactions(0, 6)).isEmpty();
        assertThat(reopened.offsets().lastStableOffset()).isEqualTo(6);
        assertThat(kinds(reopened)).containsExactly("0 data", "4 data", "5 data");
    }

    @Test
    void aCommitMarkerStaysWhileItsDataStaysAndGoesOnceCompactionRemovedIt() throws IOException {
        SegmentPartitionLog log = open();
        append(log, txn(P1, "a", "in-txn"), false);                       // 0
        append(log, marker(P1, true), false);                             // 1: COMMIT
        append(log, batch(now(), 0, kv("b", "1")), false);                // 2
        roll(log);
        append(log, batch(now(), 0, kv("c", "1")), false);                // 3
        engine.runCleanerPass();
        clock.advance(2 * HOUR);
        engine.runCleanerPass();
        assertThat(kinds(log)).as("its data is still there").containsExactly("0 data", "1 marker", "2 data", "3 data");

        append(log, batch(now(), 0, kv("a", "later")), false);            // 4: shadows 0
        roll(log);
        append(log, batch(now(), 0, kv("tail", "t")), false);             // 5, active
        engine.runCleanerPass();
        assertThat(kinds(log)).containsExactly("1 marker", "2 data", "3 data", "4 data", "5 data");
        engine.runCleanerPass();
        clock.advance(HOUR + 1);
        engine.runCleanerPass();
        assertThat(kinds(log)).containsExactly("2 data", "3 data", "4 data", "5 data");
        assertThat(records(log)).containsExactly(new Read(2, "b", "1"), new Read(3, "c", "1"), new Read(4, "a", "later"),
                new Read(5, "tail", "t"));
    }

    @Test
    void theMarkerAnActiveProducerWroteLastStaysForItsEpoch() throws IOException {
        SegmentPartitionLog log = open();
        append(log, TestBatches.batch().record("a", "v").timestamps(now(), 0).producer(P2, 0, 0).transactional().build(),
                false);                                                                                        // 0
        append(log, TestBatches.controlMarker(P2, 1, true).timestamps(now(), 0).build(), false);              // 1: TV2
        append(log, batch(now(), 0, kv("a", "later")), false);                                                 // 2
        roll(log);
        append(log, batch(now(), 0, kv("tail", "t")), false);                                                  // 3
        for (int i = 0; i < 3; i++) {
            engine.runCleanerPass();
            clock.advance(HOUR + 1);
        }
        assertThat(kinds(log)).as("the data went, the marker holding the producer's epoch stays")
                .containsExactly("1 marker", "2 data", "3 data");
        clock.advance(ProducerExpiration.KAFKA_DEFAULTS.expirationMs());
        append(log, batch(now(), 0, kv("d", "1")), false);                                                     // 4
        roll(log);
        append(log, batch(now(), 0, kv("tail", "t2")), false);                                                 // 5
        engine.runCleanerPass(); // new dirty data: a pass, which finds the marker of an expired producer removable
        clock.advance(HOUR + 1);
        engine.runCleanerPass();
        assertThat(kinds(log)).as("once the producer expired, Kafka's producer.id.expiration.ms")
                .containsExactly("2 data", "3 data", "4 data", "5 data");
    }

    @Test
    void anAbortedTransactionAtOrAboveTheLastStableOffsetIsNotCompacted() throws IOException {
        SegmentPartitionLog log = open();
        append(log, txn(P2, "k", "open"), false);                         // 0: P2 stays open
        append(log, txn(P1, "k", "aborted"), false);                      // 1
        append(log, marker(P1, false), false);                            // 2
        append(log, batch(now(), 0, kv("k", "later")), false);            // 3
        roll(log);
        append(log, batch(now(), 0, kv("tail", "t")), false);             // 4
        assertThat(log.offsets().lastStableOffset()).isZero();
        engine.runCleanerPass();
        assertThat(kinds(log)).containsExactly("0 data", "1 data", "2 marker", "3 data", "4 data");
        append(log, marker(P2, true), false);                             // 5
        roll(log);
        append(log, batch(now(), 0, kv("tail", "t2")), false);            // 6
        engine.runCleanerPass();
        assertThat(kinds(log)).as("once committed, P2's record is shadowed; P1's aborted one dropped")
                .containsExactly("2 marker", "3 data", "4 data", "5 marker", "6 data");
        assertThat(log.offsets().lastStableOffset()).isEqualTo(7);
        assertThat(log.abortedTransactions(0, 7)).containsExactly(new AbortedTransaction(P1, 1, 2));
    }
}
