package io.kaas.plugin.tck;

import static io.kaas.plugin.tck.TestBatches.batch;
import static io.kaas.plugin.tck.TestBatches.controlMarker;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kaas.api.storage.AbortedTransaction;
import io.kaas.api.storage.AppendResult;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.LogOffsets;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The transaction part of the engine contract, required of every engine: the last stable offset stops at
 * the first open transaction and moves on with its marker, ABORT markers leave aborted ranges that
 * {@link PartitionLog#abortedTransactions} returns for overlapping reads only, both survive a restart
 * ({@link EngineCapability#PERSISTENCE}), and DeleteRecords drops ranges wholly below the log start. Not
 * extended directly: extend {@link StorageEngineTck}, which inherits these tests.
 */
public abstract class TransactionTck extends ProducerStateTck {
    private static final long P1 = 9_001L;
    private static final long P2 = 9_002L;

    private static ByteBuffer txn(long producerId, int records) {
        return batch().records(records).producer(producerId, 0, -1).transactional().build();
    }

    private static ByteBuffer commit(long producerId) {
        return controlMarker(producerId, 0, true).build();
    }

    private static ByteBuffer abort(long producerId) {
        return controlMarker(producerId, 0, false).build();
    }

    private static void assertOffsets(PartitionLog log, long highWatermark, long lastStableOffset) {
        LogOffsets o = log.offsets();
        assertThat(o.highWatermark()).as("high watermark").isEqualTo(highWatermark);
        assertThat(o.lastStableOffset()).as("last stable offset").isEqualTo(lastStableOffset);
    }

    @Test
    public void withoutTransactionsTheLastStableOffsetIsTheHighWatermark() throws IOException {
        PartitionLog log = newPartition();
        assertOffsets(log, 0, 0);
        append(log, batch().records(3).build());
        append(log, batch().producer(P1, 0, 0).build()); // idempotent, not transactional
        assertOffsets(log, 4, 4);
        assertThat(log.abortedTransactions(0, 4)).isEmpty();
    }

    @Test
    public void theLastStableOffsetStallsAtAnOpenTransactionUntilItsCommit() throws IOException {
        PartitionLog log = newPartition();
        append(log, batch().build());                         // 0
        AppendResult first = append(log, txn(P1, 2));         // 1-2 open
        assertThat(first.baseOffset()).isEqualTo(1);
        assertOffsets(log, 3, 1);
        append(log, batch().build());                         // 3, after the open transaction
        append(log, txn(P1, 1));                              // 4, same transaction
        assertOffsets(log, 5, 1);
        assertThat(log.read(0, 1 << 20, log.offsets().lastStableOffset(), false).slices())
                .as("a read_committed read up to the last stable offset").hasSize(1);
        AppendResult marker = append(log, commit(P1));        // 5
        assertThat(marker.baseOffset()).isEqualTo(5);
        assertOffsets(log, 6, 6);
        assertThat(log.abortedTransactions(0, 6)).as("a commit leaves no aborted range").isEmpty();
    }

    @Test
    public void anAbortLeavesARangeReturnedForOverlappingReadsOnly() throws IOException {
        PartitionLog log = newPartition();
        append(log, batch().build());                         // 0
        append(log, txn(P1, 2));                              // 1-2
        append(log, abort(P1));                               // 3
        append(log, batch().records(2).build());              // 4-5
        assertOffsets(log, 6, 6);
        AbortedTransaction range = new AbortedTransaction(P1, 1, 3);
        assertThat(log.abortedTransactions(0, 6)).containsExactly(range);
        assertThat(log.abortedTransactions(0, 1)).as("a read that ends before the range").isEmpty();
        assertThat(log.abortedTransactions(0, 2)).containsExactly(range);
        assertThat(log.abortedTransactions(3, 4)).as("a read of the marker alone").containsExactly(range);
        assertThat(log.abortedTransactions(4, 6)).as("a read after the marker").isEmpty();
    }

    @Test
    public void interleavedProducersEachHoldTheLastStableOffsetAtTheirFirstBatch() throws IOException {
        PartitionLog log = newPartition();
        append(log, txn(P1, 1));                              // 0 P1 opens
        append(log, txn(P2, 1));                              // 1 P2 opens
        append(log, txn(P1, 1));                              // 2
        assertOffsets(log, 3, 0);
        append(log, commit(P1));                              // 3 P1 commits: P2 holds it at 1
        assertOffsets(log, 4, 1);
        append(log, txn(P1, 1));                              // 4 P1 opens again
        assertOffsets(log, 5, 1);
        append(log, abort(P2));                               // 5 P2 aborts: P1 holds it at 4
        assertOffsets(log, 6, 4);
        append(log, abort(P1));                               // 6
        assertOffsets(log, 7, 7);
        assertThat(log.abortedTransactions(0, 7)).containsExactly(new AbortedTransaction(P2, 1, 5),
                new AbortedTransaction(P1, 4, 6));
        assertThat(log.abortedTransactions(0, 4)).containsExactly(new AbortedTransaction(P2, 1, 5));
    }

    @Test
    public void anAbortWithoutAnOpenTransactionLeavesNoRange() throws IOException {
        PartitionLog log = newPartition();
        append(log, batch().build());
        append(log, abort(P1));                               // P1 wrote nothing here: Kafka indexes no range
        assertOffsets(log, 2, 2);
        assertThat(log.abortedTransactions(0, 2)).isEmpty();
        append(log, txn(P1, 1));                              // 2
        append(log, abort(P1));                               // 3
        assertThat(log.abortedTransactions(0, 4)).containsExactly(new AbortedTransaction(P1, 2, 3));
    }

    @Test
    public void markersSkipTheIdempotenceWindow() throws IOException {
        assumeTrue(supports(EngineCapability.IDEMPOTENCE), "no idempotent producers");
        PartitionLog log = newPartition();
        append(log, batch().records(2).producer(P1, 0, 0).transactional().build()); // 0-1, sequences 0-1
        append(log, commit(P1));                                                     // 2, no sequence
        AppendResult next = append(log, batch().producer(P1, 0, 2).transactional().build());
        assertThat(next.baseOffset()).as("the sequence after the marker follows the data before it").isEqualTo(3);
        assertOffsets(log, 4, 3);
    }

    @Test
    public void deleteRecordsDropsRangesWhollyBelowTheLogStart() throws IOException {
        PartitionLog log = newPartition();
        append(log, txn(P1, 1));                              // 0
        append(log, abort(P1));                               // 1
        append(log, txn(P2, 1));                              // 2
        append(log, abort(P2));                               // 3
        append(log, batch().build());                         // 4
        await(log.deleteRecordsBefore(1));
        assertThat(log.abortedTransactions(0, 5)).as("the marker of P1 is still above the log start")
                .containsExactly(new AbortedTransaction(P1, 0, 1), new AbortedTransaction(P2, 2, 3));
        await(log.deleteRecordsBefore(2));
        assertThat(log.abortedTransactions(0, 5)).containsExactly(new AbortedTransaction(P2, 2, 3));
        await(log.deleteRecordsBefore(5));
        assertThat(log.abortedTransactions(0, 5)).isEmpty();
    }

    @Test
    public void theLastStableOffsetNeverFallsBelowTheLogStart() throws IOException {
        PartitionLog log = newPartition();
        append(log, txn(P1, 1));                              // 0 P1 opens
        append(log, batch().records(3).build());              // 1-3
        assertOffsets(log, 4, 0);
        await(log.deleteRecordsBefore(2));
        assertThat(log.offsets().logStartOffset()).isEqualTo(2);
        assertOffsets(log, 4, 2);
        append(log, batch().build());                         // 4: P1 still open, held at the log start
        assertOffsets(log, 5, 2);
        append(log, commit(P1));                              // 5
        assertOffsets(log, 6, 6);
    }

    @Test
    public void openTransactionsAndAbortedRangesSurviveARestart() throws IOException {
        assumeTrue(supports(EngineCapability.PERSISTENCE), "the engine keeps nothing across a restart");
        PartitionKey key = newKey();
        PartitionLog log = engine.openPartition(key, LogConfig.defaults());
        append(log, txn(P1, 2));                              // 0-1 P1
        append(log, abort(P1));                               // 2
        append(log, batch().build());                         // 3
        append(log, txn(P2, 1));                              // 4 P2 stays open
        appendDurably(log, batch().build());                  // 5
        assertOffsets(log, 6, 4);
        restart();
        PartitionLog reopened = engine.openPartition(key, LogConfig.defaults());
        assertOffsets(reopened, 6, 4);
        assertThat(reopened.abortedTransactions(0, 6)).containsExactly(new AbortedTransaction(P1, 0, 2));
        append(reopened, commit(P2));                         // 6: the open transaction closes after the restart
        assertOffsets(reopened, 7, 7);
        assertThat(reopened.abortedTransactions(0, 7)).containsExactly(new AbortedTransaction(P1, 0, 2));
    }

    @Test
    public void rangesDroppedByDeleteRecordsStayDroppedAfterARestart() throws IOException {
        assumeTrue(supports(EngineCapability.PERSISTENCE), "the engine keeps nothing across a restart");
        PartitionKey key = newKey();
        PartitionLog log = engine.openPartition(key, LogConfig.defaults());
        append(log, txn(P1, 1));                              // 0
        append(log, abort(P1));                               // 1
        append(log, txn(P2, 1));                              // 2
        appendDurably(log, abort(P2));                        // 3
        await(log.deleteRecordsBefore(2));
        restart();
        PartitionLog reopened = engine.openPartition(key, LogConfig.defaults());
        List<AbortedTransaction> ranges = reopened.abortedTransactions(0, 4);
        assertThat(ranges).containsExactly(new AbortedTransaction(P2, 2, 3));
    }
}
