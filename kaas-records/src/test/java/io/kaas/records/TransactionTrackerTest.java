package io.kaas.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.ControlRecords;
import io.kaas.api.record.CorruptBatchException;
import io.kaas.api.record.RecordBatches;
import io.kaas.api.storage.AbortedTransaction;
import io.kaas.api.storage.InvalidTxnStateException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TransactionTrackerTest {
    private static final short TXN = (short) RecordBatches.TRANSACTIONAL_FLAG;
    private static final short CONTROL = (short) (RecordBatches.TRANSACTIONAL_FLAG | RecordBatches.CONTROL_FLAG);

    private final TransactionTracker tracker = new TransactionTracker();

    private static BatchHeader header(long producerId, short attributes, int records, int size) {
        return new BatchHeader(0, size, 0, records - 1, 0, attributes, 0, 0, producerId, (short) 0, -1, records);
    }

    /** A control batch's bytes: a zeroed header, then one record whose key is {@code key}. */
    private static ByteBuffer controlBatch(byte[] key) {
        ByteBuffer rec = ByteBuffer.allocate(64);
        rec.put((byte) 0).put((byte) 0).put((byte) 0).put((byte) (key.length << 1)).put(key).put((byte) 12)
                .put(new byte[6]).put((byte) 0);
        int length = rec.position();
        ByteBuffer b = ByteBuffer.allocate(RecordBatches.HEADER_SIZE + 1 + length);
        b.position(RecordBatches.HEADER_SIZE);
        b.put((byte) (length << 1)).put(rec.array(), 0, length);
        return b.flip();
    }

    private static ByteBuffer marker(short type) {
        return controlBatch(ByteBuffer.allocate(4).putShort((short) 0).putShort(type).array());
    }

    private void data(long producerId, long offset, int records) {
        TransactionTracker.Staged s = tracker.stage();
        s.record(header(producerId, TXN, records, 100), offset, null);
        s.commit();
    }

    private void end(long producerId, long offset, short type) {
        ByteBuffer b = marker(type);
        TransactionTracker.Staged s = tracker.stage();
        s.record(header(producerId, CONTROL, 1, b.remaining()), offset, b);
        s.commit();
    }

    @Test
    void theFirstTransactionalBatchOpensAndTheMarkerCloses() {
        assertThat(tracker.lastStableOffset(10)).isEqualTo(10);
        data(1, 3, 2);
        data(1, 6, 1); // same transaction: the first offset stays 3
        assertThat(tracker.lastStableOffset(7)).isEqualTo(3);
        end(1, 7, ControlRecords.COMMIT);
        assertThat(tracker.lastStableOffset(8)).isEqualTo(8);
        assertThat(tracker.abortedTransactions()).isEmpty();
    }

    @Test
    void anAbortRecordsItsRangeAndTheOldestOpenTransactionHoldsTheLastStableOffset() {
        data(1, 0, 1);
        data(2, 1, 1);
        end(1, 2, ControlRecords.ABORT);
        assertThat(tracker.lastStableOffset(3)).isEqualTo(1);
        end(2, 3, ControlRecords.ABORT);
        end(3, 4, ControlRecords.ABORT); // nothing open: no data of producer 3 to abort, no range (as Kafka)
        assertThat(tracker.abortedTransactions()).containsExactly(new AbortedTransaction(1, 0, 2),
                new AbortedTransaction(2, 1, 3));
        assertThat(tracker.aborted(3, 4)).containsExactly(new AbortedTransaction(2, 1, 3));
        assertThat(tracker.aborted(0, 1)).containsExactly(new AbortedTransaction(1, 0, 2));
    }

    @Test
    void aCommitWithNothingOpenChangesNothing() {
        end(1, 0, ControlRecords.COMMIT);
        assertThat(tracker.openTransactions()).isEmpty();
        assertThat(tracker.abortedTransactions()).isEmpty();
    }

    @Test
    void nonTransactionalBatchesAreIgnored() {
        TransactionTracker.Staged s = tracker.stage();
        s.record(header(1, (short) 0, 1, 100), 0, null);
        s.record(header(-1, TXN, 1, 100), 1, null);
        assertThat(s.changes()).isEmpty();
        s.commit();
        assertThat(tracker.lastStableOffset(2)).isEqualTo(2);
    }

    @Test
    void aStagedViewChangesNothingUntilCommittedAndKnowsItsLastStableOffset() {
        data(1, 0, 1);
        ByteBuffer b = marker(ControlRecords.ABORT);
        TransactionTracker.Staged s = tracker.stage();
        s.record(header(1, CONTROL, 1, b.remaining()), 1, b);
        s.record(header(2, TXN, 1, 100), 2, null);
        assertThat(s.lastStableOffset(3)).isEqualTo(2);
        assertThat(s.changes()).containsExactly(new TransactionTracker.Change(1, -1, new AbortedTransaction(1, 0, 1)),
                new TransactionTracker.Change(2, 2, null));
        assertThat(tracker.lastStableOffset(3)).as("not committed").isEqualTo(0);
        assertThat(tracker.abortedTransactions()).isEmpty();
        s.commit();
        assertThat(tracker.lastStableOffset(3)).isEqualTo(2);
        assertThat(tracker.openTransactions()).containsExactly(Map.entry(2L, 2L));
    }

    @Test
    void restoreAndDropBelowTheLogStart() {
        tracker.restore(Map.of(5L, 9L), List.of(new AbortedTransaction(2, 4, 6), new AbortedTransaction(1, 0, 2)));
        assertThat(tracker.lastStableOffset(20)).isEqualTo(9);
        assertThat(tracker.abortedTransactions()).as("ordered by marker offset")
                .containsExactly(new AbortedTransaction(1, 0, 2), new AbortedTransaction(2, 4, 6));
        assertThat(tracker.dropBelow(2)).isEmpty();
        assertThat(tracker.dropBelow(3)).containsExactly(new AbortedTransaction(1, 0, 2));
        assertThat(tracker.abortedTransactions()).containsExactly(new AbortedTransaction(2, 4, 6));
    }

    @Test
    void aMalformedMarkerIsRefused() {
        ByteBuffer shortKey = controlBatch(new byte[] {0, 0, 1});
        assertThatThrownBy(() -> tracker.stage().record(header(1, CONTROL, 1, shortKey.remaining()), 0, shortKey))
                .isInstanceOf(CorruptBatchException.class);
        ByteBuffer unknown = marker((short) 7);
        assertThatThrownBy(() -> tracker.stage().record(header(1, CONTROL, 1, unknown.remaining()), 0, unknown))
                .isInstanceOf(CorruptBatchException.class);
    }

    @Test
    void controlBatchesSkipTheIdempotenceWindow() {
        BatchHeader control = new BatchHeader(0, 100, 0, 0, 0, CONTROL, 0, 0, 1, (short) 0, 0, 1);
        assertThat(ProducerWindows.isIdempotent(control)).isFalse();
    }

    @Test
    void aNonTransactionalBatchOfAProducerWithAnOpenTransactionIsRefusedButReplayed() {
        data(1, 0, 1);
        TransactionTracker.Staged s = tracker.stage();
        assertThatThrownBy(() -> s.record(header(1, (short) 0, 1, 100), 1, null))
                .isInstanceOf(InvalidTxnStateException.class).hasMessageContaining("producer 1");
        assertThat(s.changes()).isEmpty();
        tracker.replay(header(1, (short) 0, 1, 100), null); // what the log holds is replayed as it is
        assertThat(tracker.openTransactions()).containsExactly(Map.entry(1L, 0L));
    }

    @Test
    void abortedFindsOverlappingRangesAmongMany() {
        List<AbortedTransaction> ranges = new java.util.ArrayList<>();
        for (int i = 0; i < 100; i++) {
            ranges.add(new AbortedTransaction(i % 3, i * 10L, i * 10L + 5)); // data [10i, 10i+5), marker 10i+5
        }
        ranges.add(new AbortedTransaction(7, 0, 2_000)); // a long one, open since the start
        tracker.restore(Map.of(), ranges);
        assertThat(tracker.aborted(503, 516)).containsExactly(new AbortedTransaction(50 % 3, 500, 505),
                new AbortedTransaction(51 % 3, 510, 515), new AbortedTransaction(7, 0, 2_000));
        assertThat(tracker.aborted(506, 510)).containsExactly(new AbortedTransaction(7, 0, 2_000));
        assertThat(tracker.aborted(0, 1)).containsExactly(new AbortedTransaction(0, 0, 5), new AbortedTransaction(7, 0, 2_000));
        assertThat(tracker.aborted(2_001, 3_000)).isEmpty();
    }
}
