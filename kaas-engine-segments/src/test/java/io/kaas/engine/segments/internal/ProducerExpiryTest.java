package io.kaas.engine.segments.internal;

import static io.kaas.engine.segments.internal.LogFixture.append;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.ProducerExpiration;
import io.kaas.api.storage.ProducerState;
import io.kaas.plugin.tck.TestBatches;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Producer expiry in the segment engine, what the TCK cannot see: the producer snapshot written by the pass, and a
 * crash (no clean close, so no snapshot at close) after it. Passes are run by hand: the background one is an hour away.
 */
class ProducerExpiryTest {
    private static final long P1 = 21L;
    private static final long P2 = 22L;
    private static final long P3 = 23L;
    private static final long EXPIRATION_MS = 60_000L;
    private static final ProducerExpiration BY_HAND = new ProducerExpiration(EXPIRATION_MS, TimeUnit.HOURS.toMillis(1));

    @TempDir
    Path dataDir;
    private final LogFixture.MutableClock clock = new LogFixture.MutableClock(LogFixture.NOW);
    private SegmentEngine engine;

    @AfterEach
    void closeEngine() throws IOException {
        if (engine != null) {
            engine.close();
        }
    }

    private static ByteBuffer idempotent(long producerId, int seq, int records, long ts) {
        return TestBatches.batch().timestamps(ts, new long[records]).producer(producerId, 0, seq).build();
    }

    private ProducerSnapshot.Loaded snapshot(SegmentPartitionLog log) throws IOException {
        return ProducerSnapshot.decode(log.dir.readProducerSnapshot().orElseThrow()).orElseThrow();
    }

    @Test
    void thePassRewritesTheSnapshotWithoutTheExpiredProducersAndACrashKeepsThemGone() throws IOException {
        SegmentEngine crashed = LogFixture.engine(dataDir, clock, BY_HAND);
        SegmentPartitionLog log = LogFixture.open(crashed, LogConfig.defaults());
        long t = clock.millis();
        append(log, idempotent(P1, 0, 3, t), true);                                     // 0-2
        append(log, TestBatches.batch().timestamps(t, 0).producer(P3, 0, 0).transactional().build(), true); // 3: open
        append(log, idempotent(P2, 0, 1, t + 1), false);                                // 4: acks=1, not yet durable
        assertThat(crashed.runProducerExpiryPass()).as("nothing is old enough yet").isZero();

        clock.advance(EXPIRATION_MS);
        assertThat(crashed.runProducerExpiryPass()).isEqualTo(1);
        ProducerSnapshot.Loaded written = snapshot(log);
        assertThat(written.offset()).as("as of the log end").isEqualTo(5);
        assertThat(log.committer.durableOffset()).as("made durable before the snapshot of it").isEqualTo(5);
        assertThat(written.producers()).containsOnlyKeys(P2, P3);
        assertThat(written.openTransactions()).containsEntry(P3, 3L);
        assertThat(crashed.runProducerExpiryPass()).as("nothing more to remove").isZero();
        // no close: a crash

        engine = LogFixture.engine(dataDir, clock, BY_HAND);
        SegmentPartitionLog reopened = LogFixture.open(engine, LogConfig.defaults());
        assertThat(reopened.recovery().cleanShutdown()).isFalse();
        assertThat(reopened.recovery().replayedBatches()).as("the snapshot covers the whole log").isZero();
        assertThat(reopened.producers()).containsExactly(new ProducerState(P2, 0, 0, t + 1, -1, -1),
                new ProducerState(P3, 0, 0, t, -1, 3));
        assertThat(append(reopened, idempotent(P1, 40, 1, clock.millis()), true).baseOffset())
                .as("P1 is a new producer").isEqualTo(5);
    }

    @Test
    void aProducerWritingAfterTheSnapshotIsReplayedAfterACrashAndExpiresAgainAtTheNextPass() throws IOException {
        SegmentEngine crashed = LogFixture.engine(dataDir, clock, BY_HAND);
        SegmentPartitionLog log = LogFixture.open(crashed, LogConfig.defaults());
        long t = clock.millis();
        append(log, idempotent(P1, 0, 1, t), true);                                     // 0
        clock.advance(EXPIRATION_MS);
        assertThat(crashed.runProducerExpiryPass()).isEqualTo(1);
        append(log, idempotent(P2, 0, 2, t), true);                                     // 1-2: already old, after the snapshot
        // no close: a crash

        engine = LogFixture.engine(dataDir, clock, BY_HAND);
        SegmentPartitionLog reopened = LogFixture.open(engine, LogConfig.defaults());
        assertThat(reopened.recovery().replayedBatches()).isEqualTo(1);
        assertThat(reopened.producers()).extracting(ProducerState::producerId).containsExactly(P2);
        assertThat(engine.runProducerExpiryPass()).isEqualTo(1);
        assertThat(reopened.producers()).isEmpty();
    }
}
