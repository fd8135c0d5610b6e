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
import io.kaas.api.storage.ProducerState;
import io.kaas.api.storage.TransactionCoordinatorFencedException;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * The producer-state part of the engine contract, as Kafka's producer state manager keeps it: what
 * {@link PartitionLog#producers()} lists (DescribeProducers), and how transaction markers are checked against
 * the producer's epoch and coordinator epoch and change them (zombie fencing, the Transactions V2 epoch bump on
 * every end). Needs {@link EngineCapability#IDEMPOTENCE} (producer ids); the restart cases
 * {@link EngineCapability#PERSISTENCE}. Not extended directly: extend {@link StorageEngineTck}, which inherits
 * these tests.
 */
public abstract class ProducerStateTck extends EngineTckSupport {
    private static final long P1 = 7_001L;
    private static final long P2 = 7_002L;

    /** Transactional data of {@code records} records, sequences from {@code seq}, timestamps 1000, 1001, … */
    private static ByteBuffer txn(long producerId, int epoch, int seq, int records) {
        return batch().records(records).producer(producerId, epoch, seq).transactional().build();
    }

    /** A marker at timestamp 5000. */
    private static ByteBuffer marker(long producerId, int epoch, int coordinatorEpoch, boolean commit) {
        return controlMarker(producerId, epoch, commit).coordinatorEpoch(coordinatorEpoch).timestamps(5_000, 0).build();
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
}
