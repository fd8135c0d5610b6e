package io.kaas.plugin.tck;

import static io.kaas.plugin.tck.TestBatches.batch;
import static io.kaas.plugin.tck.TestBatches.controlMarker;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kaas.api.storage.AppendResult;
import io.kaas.api.storage.InvalidProducerEpochException;
import io.kaas.api.storage.InvalidTxnStateException;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.LogOffsets;
import io.kaas.api.storage.OutOfOrderSequenceException;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.ProducerExpiration;
import io.kaas.api.storage.ProducerState;
import io.kaas.api.storage.TransactionCoordinatorFencedException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The producer-state part of the engine contract, as Kafka's producer state manager keeps it: what
 * {@link PartitionLog#producers()} lists (DescribeProducers), and how transaction markers are checked against
 * the producer's epoch and coordinator epoch and change them (zombie fencing, the Transactions V2 epoch bump on
 * every end), and how idle producers expire ({@link ProducerExpiration}: Kafka's {@code producer.id.expiration.ms},
 * checked by the engine's own background pass every {@code producer.id.expiration.check.interval.ms}; these cases
 * set 60 s and 20 ms and move the engine's clock by hand). Needs {@link EngineCapability#IDEMPOTENCE} (producer
 * ids); the restart cases
 * {@link EngineCapability#PERSISTENCE}. Not extended directly: extend {@link StorageEngineTck}, which inherits
 * these tests.
 */
public abstract class ProducerStateTck extends SharedVolumeTck {
    private static final long P1 = 7_001L;
    private static final long P2 = 7_002L;
    private static final long P3 = 7_003L;
    /** {@code producer.id.expiration.ms} of the expiration cases. */
    private static final long EXPIRATION_MS = 60_000L;
    /** {@code producer.id.expiration.check.interval.ms} of the expiration cases. */
    private static final long CHECK_INTERVAL_MS = 20L;

    /** Transactional data of {@code records} records, sequences from {@code seq}, timestamps 1000, 1001, … */
    private static ByteBuffer txn(long producerId, int epoch, int seq, int records) {
        return batch().records(records).producer(producerId, epoch, seq).transactional().build();
    }

    /** A marker at timestamp 5000. */
    private static ByteBuffer marker(long producerId, int epoch, int coordinatorEpoch, boolean commit) {
        return controlMarker(producerId, epoch, commit).coordinatorEpoch(coordinatorEpoch).timestamps(5_000, 0).build();
    }

    /** An idempotent (or transactional) batch of {@code records} records, sequences from {@code seq}, all at {@code ts}. */
    private static ByteBuffer at(long ts, long producerId, int seq, int records, boolean transactional) {
        TestBatches b = batch().timestamps(ts, new long[records]).producer(producerId, 0, seq);
        return (transactional ? b.transactional() : b).build();
    }

    /**
     * Reopens the engine with a clock at {@link #CLOCK_MILLIS} that the test moves, producers expiring after
     * {@link #EXPIRATION_MS}, looked for every {@link #CHECK_INTERVAL_MS}.
     */
    private TckClock expiringEngine() throws IOException {
        TckClock clock = new TckClock(CLOCK_MILLIS);
        restartWith(clock, new ProducerExpiration(EXPIRATION_MS, CHECK_INTERVAL_MS));
        return clock;
    }

    /** Waits (up to the TCK's timeout) for the engine's expiry pass to remove {@code producerId}. */
    private static void awaitExpired(PartitionLog log, long producerId) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (log.producers().stream().anyMatch(p -> p.producerId() == producerId)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("producer " + producerId + " is still listed " + TIMEOUT_SECONDS
                        + " s after its expiration, with producer.id.expiration.check.interval.ms=" + CHECK_INTERVAL_MS
                        + ": " + log.producers());
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }
    }

    private void requireProducerIds() {
        assumeTrue(supports(EngineCapability.IDEMPOTENCE), "the engine refuses producer ids");
    }

    private static void assertUnchanged(PartitionLog log, LogOffsets before) {
        assertThat(log.offsets()).as("nothing stored").isEqualTo(before);
    }

    @Test
    public void producersListsIdempotentAndTransactionalProducersInIdOrder() throws IOException {
        requireProducerIds();
        PartitionLog log = newPartition();
        assertThat(log.producers()).isEmpty();
        append(log, batch().records(2).build());                                 // 0-1: no producer
        append(log, txn(P2, 1, 0, 1));                                           // 2: P2 opens
        append(log, batch().records(3).producer(P1, 0, 0).build());             // 3-5: P1 idempotent
        assertThat(log.producers()).containsExactly(
                new ProducerState(P1, 0, 2, 1_002, -1, -1),
                new ProducerState(P2, 1, 0, 1_000, -1, 2));
    }

    @Test
    public void aMarkerClosesTheTransactionAndRecordsItsCoordinatorEpochAndTimestamp() throws IOException {
        requireProducerIds();
        PartitionLog log = newPartition();
        append(log, txn(P1, 0, 0, 2));                                           // 0-1
        append(log, marker(P1, 0, 3, true));                                     // 2
        assertThat(log.producers()).containsExactly(new ProducerState(P1, 0, 1, 5_000, 3, -1));
        append(log, txn(P1, 0, 2, 1));                                           // 3: the next transaction, same epoch
        assertThat(log.producers()).containsExactly(new ProducerState(P1, 0, 2, 1_000, 3, 3));
    }

    @Test
    public void aMarkerForAProducerTheLogDoesNotKnowIsAccepted() throws IOException {
        requireProducerIds();
        PartitionLog log = newPartition();
        append(log, marker(P1, 4, 0, false));
        assertThat(log.producers()).containsExactly(new ProducerState(P1, 4, -1, 5_000, 0, -1));
    }

    @Test
    public void aMarkerOfAnOlderProducerEpochIsRefusedAndStoresNothing() throws IOException {
        requireProducerIds();
        PartitionLog log = newPartition();
        append(log, txn(P1, 2, 0, 1));                                           // 0, epoch 2
        LogOffsets before = log.offsets();
        assertFailsWith(InvalidProducerEpochException.class, () -> log.append(produced(marker(P1, 1, 0, true)), false));
        assertUnchanged(log, before);
        assertThat(log.producers()).containsExactly(new ProducerState(P1, 2, 0, 1_000, -1, 0));
        append(log, marker(P1, 2, 0, true));                                     // 1: the right epoch
        assertThat(log.offsets().lastStableOffset()).isEqualTo(2);
    }

    @Test
    public void aFencingAbortWithABumpedEpochFencesTheOldEpochsData() throws IOException {
        requireProducerIds();
        PartitionLog log = newPartition();
        append(log, txn(P1, 0, 0, 2));                                           // 0-1, epoch 0, sequences 0-1
        append(log, marker(P1, 1, 0, false));                                    // 2: the coordinator fenced epoch 0
        LogOffsets before = log.offsets();
        assertFailsWith(InvalidProducerEpochException.class, () -> log.append(produced(txn(P1, 0, 2, 1)), false));
        assertUnchanged(log, before);
        AppendResult fresh = append(log, txn(P1, 1, 0, 1));                      // 3: the new epoch starts at 0
        assertThat(fresh.baseOffset()).isEqualTo(3);
        assertThat(log.producers()).containsExactly(new ProducerState(P1, 1, 0, 1_000, 0, 3));
    }

    @Test
    public void afterATransactionsV2EndWithABumpedEpochTheNextBatchStartsAtSequenceZero() throws IOException {
        requireProducerIds();
        PartitionLog log = newPartition();
        append(log, txn(P1, 0, 0, 2));                                           // 0-1, sequences 0-1
        append(log, marker(P1, 1, 0, true));                                     // 2: committed, epoch bumped to 1
        assertThat(log.producers()).as("the bump forgets the old epoch's sequences")
                .containsExactly(new ProducerState(P1, 1, -1, 5_000, 0, -1));
        LogOffsets before = log.offsets();
        assertFailsWith(OutOfOrderSequenceException.class, () -> log.append(produced(txn(P1, 1, 2, 1)), false));
        assertUnchanged(log, before);
        AppendResult next = append(log, txn(P1, 1, 0, 1));                       // 3
        assertThat(next.baseOffset()).isEqualTo(3);
        assertThat(log.offsets().lastStableOffset()).isEqualTo(3);
        append(log, marker(P1, 2, 0, false));                                    // 4: aborted, bumped to 2
        assertFailsWith(OutOfOrderSequenceException.class, () -> log.append(produced(txn(P1, 3, 5, 1)), false));
        assertThat(append(log, txn(P1, 2, 0, 1)).baseOffset()).isEqualTo(5);
    }

    @Test
    public void aMarkerOfAnOlderCoordinatorEpochIsRefusedAndStoresNothing() throws IOException {
        requireProducerIds();
        PartitionLog log = newPartition();
        append(log, txn(P1, 0, 0, 1));                                           // 0
        append(log, marker(P1, 0, 5, true));                                     // 1: coordinator epoch 5
        append(log, txn(P1, 0, 1, 1));                                           // 2
        LogOffsets before = log.offsets();
        assertFailsWith(TransactionCoordinatorFencedException.class,
                () -> log.append(produced(marker(P1, 0, 4, true)), false));
        assertUnchanged(log, before);
        assertThat(log.offsets().lastStableOffset()).as("the transaction is still open").isEqualTo(2);
        append(log, marker(P1, 0, 6, false));                                    // 3: a newer coordinator
        assertThat(log.producers()).containsExactly(new ProducerState(P1, 0, 1, 5_000, 6, -1));
        assertThat(log.offsets().lastStableOffset()).isEqualTo(4);
    }

    @Test
    public void aNonTransactionalBatchOfAProducerWithAnOpenTransactionIsRefused() throws IOException {
        requireProducerIds();
        PartitionLog log = newPartition();
        append(log, txn(P1, 0, 0, 1));                                           // 0: open
        LogOffsets before = log.offsets();
        assertFailsWith(InvalidTxnStateException.class,
                () -> log.append(produced(batch().producer(P1, 0, 1).build()), false));
        assertUnchanged(log, before);
        append(log, marker(P1, 0, 0, true));                                     // 1
        assertThat(append(log, batch().producer(P1, 0, 1).build()).baseOffset())
                .as("idempotent again once the transaction ended").isEqualTo(2);
    }

    @Test
    public void consecutiveBatchesOfOneProducerInOneAppendFollowEachOther() throws IOException {
        requireProducerIds();
        PartitionLog log = newPartition();
        AppendResult r = append(log, TestBatches.concat(batch().records(2).producer(P1, 0, 0).build(),
                batch().records(2).producer(P1, 0, 2).build()));
        assertThat(r.baseOffset()).isZero();
        assertThat(r.lastOffset()).isEqualTo(3);
        assertThat(log.producers()).containsExactly(new ProducerState(P1, 0, 3, 1_001, -1, -1));
        LogOffsets before = log.offsets();
        assertFailsWith(OutOfOrderSequenceException.class, () -> log.append(produced(TestBatches.concat(
                batch().producer(P1, 0, 4).build(), batch().producer(P1, 0, 6).build())), false));
        assertUnchanged(log, before);
        AppendResult next = append(log, TestBatches.concat(batch().producer(P1, 0, 4).build(),
                batch().producer(P1, 0, 5).build()));
        assertThat(next.lastOffset()).as("the second batch follows the first, not the state before the append")
                .isEqualTo(5);
    }

    @Test
    public void producerStateAndFencingSurviveARestart() throws IOException {
        requireProducerIds();
        assumeTrue(supports(EngineCapability.PERSISTENCE), "the engine keeps nothing across a restart");
        PartitionKey key = newKey();
        PartitionLog log = engine.openPartition(key, LogConfig.defaults());
        append(log, batch().records(3).producer(P1, 2, 0).build());              // 0-2: P1 idempotent
        append(log, txn(P2, 0, 0, 1));                                           // 3
        append(log, marker(P2, 1, 7, true));                                     // 4: TV2 end, epoch 1, coordinator 7
        appendDurably(log, txn(P2, 1, 0, 2));                                    // 5-6: P2's next transaction, open
        var before = log.producers();
        assertThat(before).containsExactly(new ProducerState(P1, 2, 2, 1_002, -1, -1),
                new ProducerState(P2, 1, 1, 1_001, 7, 5));
        restart();
        PartitionLog reopened = engine.openPartition(key, LogConfig.defaults());
        assertThat(reopened.producers()).isEqualTo(before);
        assertThat(reopened.offsets().lastStableOffset()).isEqualTo(5);
        LogOffsets after = reopened.offsets();
        assertFailsWith(TransactionCoordinatorFencedException.class,
                () -> reopened.append(produced(marker(P2, 1, 6, true)), false));
        assertFailsWith(InvalidProducerEpochException.class,
                () -> reopened.append(produced(marker(P2, 0, 7, true)), false));
        assertFailsWith(InvalidProducerEpochException.class,
                () -> reopened.append(produced(batch().producer(P1, 1, 3).build()), false));
        assertUnchanged(reopened, after);
        append(reopened, txn(P2, 1, 2, 1));                                      // 7: the sequence goes on
        append(reopened, marker(P2, 1, 7, true));                                // 8
        assertThat(reopened.offsets().lastStableOffset()).isEqualTo(9);
    }

    @Test
    public void anOpenTransactionCutByDeleteRecordsHoldsTheLastStableOffsetAtTheLogStartAcrossARestart()
            throws IOException {
        requireProducerIds();
        assumeTrue(supports(EngineCapability.PERSISTENCE), "the engine keeps nothing across a restart");
        PartitionKey key = newKey();
        PartitionLog log = engine.openPartition(key, LogConfig.defaults());
        append(log, txn(P1, 0, 0, 1));                                           // 0: open
        appendDurably(log, batch().records(3).build());                          // 1-3
        await(log.deleteRecordsBefore(2));
        assertThat(log.offsets()).isEqualTo(new LogOffsets(2, 4, 2));
        restart();
        PartitionLog reopened = engine.openPartition(key, LogConfig.defaults());
        assertThat(reopened.offsets()).as("still open, stable up to the log start").isEqualTo(new LogOffsets(2, 4, 2));
        assertThat(reopened.producers()).containsExactly(new ProducerState(P1, 0, 0, 1_000, -1, 0));
        append(reopened, marker(P1, 0, 0, true));                                // 4
        assertThat(reopened.offsets()).isEqualTo(new LogOffsets(2, 5, 5));
    }

    @Test
    public void aProducerExpiresOnceItsLastWriteIsProducerIdExpirationMsOldAndThenStartsAfresh() throws IOException {
        requireProducerIds();
        TckClock clock = expiringEngine();
        long t = CLOCK_MILLIS;
        PartitionLog log = newPartition();
        append(log, at(t, P1, 0, 3, false));                                    // 0-2: P1, sequences 0-2
        append(log, at(t + 1, P2, 0, 1, false));                                // 3: P2, one ms later
        clock.set(t + EXPIRATION_MS);
        awaitExpired(log, P1);
        assertThat(log.producers()).as("the same pass kept P2, one ms short of the horizon")
                .containsExactly(new ProducerState(P2, 0, 0, t + 1, -1, -1));
        long now = clock.millis();
        AppendResult fresh = append(log, at(now, P1, 17, 1, false));            // 4: any sequence, as a new producer
        assertThat(fresh.baseOffset()).isEqualTo(4);
        assertThat(log.producers()).containsExactly(new ProducerState(P1, 0, 17, now, -1, -1),
                new ProducerState(P2, 0, 0, t + 1, -1, -1));
        LogOffsets before = log.offsets();
        assertFailsWith(OutOfOrderSequenceException.class, () -> log.append(produced(at(now, P2, 5, 1, false)), false));
        assertUnchanged(log, before);
        assertThat(append(log, at(now, P2, 1, 1, false)).baseOffset()).as("P2's sequence goes on").isEqualTo(5);
    }

    @Test
    public void aProducerWithAnOpenTransactionDoesNotExpireUntilItsTransactionEnds() throws IOException {
        requireProducerIds();
        TckClock clock = expiringEngine();
        long t = CLOCK_MILLIS;
        PartitionLog log = newPartition();
        append(log, at(t, P1, 0, 2, true));                                     // 0-1: P1's transaction, open
        append(log, at(t, P2, 0, 1, false));                                    // 2: P2, idempotent, as old
        clock.set(t + 10 * EXPIRATION_MS);
        awaitExpired(log, P2);
        assertThat(log.producers()).as("the same pass kept P1: its transaction is open")
                .containsExactly(new ProducerState(P1, 0, 1, t, -1, 0));
        assertThat(log.offsets().lastStableOffset()).isZero();
        long end = clock.millis();
        append(log, controlMarker(P1, 0, true).coordinatorEpoch(0).timestamps(end, 0).build());   // 3: committed
        assertThat(log.producers()).containsExactly(new ProducerState(P1, 0, 1, end, 0, -1));
        assertThat(log.offsets().lastStableOffset()).isEqualTo(4);
        clock.set(end + EXPIRATION_MS);
        awaitExpired(log, P1);
        assertThat(log.producers()).isEmpty();
        assertThat(log.offsets().lastStableOffset()).isEqualTo(4);
    }

    @Test
    public void expiredProducersStayGoneAfterARestart() throws IOException {
        requireProducerIds();
        assumeTrue(supports(EngineCapability.PERSISTENCE), "the engine keeps nothing across a restart");
        TckClock clock = expiringEngine();
        long t = CLOCK_MILLIS;
        PartitionKey key = newKey();
        PartitionLog log = engine.openPartition(key, LogConfig.defaults());
        append(log, at(t, P1, 0, 3, false));                                    // 0-2: P1, will expire
        append(log, at(t, P3, 0, 1, true));                                     // 3: P3's transaction, open
        appendDurably(log, at(t + 1, P2, 0, 2, false));                         // 4-5: P2, kept
        clock.set(t + EXPIRATION_MS);
        awaitExpired(log, P1);
        var kept = log.producers();
        assertThat(kept).containsExactly(new ProducerState(P2, 0, 1, t + 1, -1, -1),
                new ProducerState(P3, 0, 0, t, -1, 3));
        // no pass runs after this restart: what comes back is what the engine persisted
        restartWith(clock, new ProducerExpiration(EXPIRATION_MS, TimeUnit.HOURS.toMillis(1)));
        PartitionLog reopened = engine.openPartition(key, LogConfig.defaults());
        assertThat(reopened.producers()).isEqualTo(kept);
        assertThat(reopened.offsets().lastStableOffset()).isEqualTo(3);
        long now = clock.millis();
        assertThat(append(reopened, at(now, P1, 50, 1, false)).baseOffset()).as("P1 starts afresh").isEqualTo(6);
        LogOffsets before = reopened.offsets();
        assertFailsWith(OutOfOrderSequenceException.class,
                () -> reopened.append(produced(at(now, P2, 9, 1, false)), false));
        assertUnchanged(reopened, before);
        assertThat(append(reopened, at(now, P2, 2, 1, false)).baseOffset()).isEqualTo(7);
    }
}
