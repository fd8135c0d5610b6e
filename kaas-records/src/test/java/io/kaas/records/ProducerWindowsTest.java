package io.kaas.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.storage.InvalidProducerEpochException;
import io.kaas.api.record.RecordBatches;
import io.kaas.api.storage.OutOfOrderSequenceException;
import io.kaas.api.storage.ProducerState;
import io.kaas.api.storage.TransactionCoordinatorFencedException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProducerWindowsTest {
    private final ProducerWindows windows = new ProducerWindows();

    /** A header of {@code records} records from producer 7 at {@code epoch}, starting at sequence {@code seq}. */
    private static BatchHeader batch(int epoch, int seq, int records) {
        return new BatchHeader(0, 100, 0, records - 1, 0, (short) 0, 0, 0, 7, (short) epoch, seq, records);
    }

    private void append(BatchHeader h, long offset) {
        ProducerWindows.Staged s = windows.stage();
        assertThat(s.check(h)).isEmpty();
        s.record(h, offset);
        s.commit();
    }

    @Test
    void findsADuplicateOfAnyOfTheLastFiveBatches() {
        for (int i = 0; i < 6; i++) {
            append(batch(0, i * 2, 2), i * 10L);
        }
        ProducerWindows.Staged s = windows.stage();
        assertThat(s.check(batch(0, 2, 2))).contains(new ProducerWindows.Batch(2, 3, 10, 11));
        // the first batch fell out of the window: it is neither a duplicate nor next in sequence
        assertThatThrownBy(() -> s.check(batch(0, 0, 2))).isInstanceOf(OutOfOrderSequenceException.class);
        assertThat(windows.producers().get(7L).batches()).hasSize(ProducerWindows.WINDOW);
    }

    @Test
    void refusesAGapAndAnOlderEpoch() {
        append(batch(1, 0, 3), 0);
        assertThatThrownBy(() -> windows.stage().check(batch(1, 4, 1))).isInstanceOf(OutOfOrderSequenceException.class)
                .hasMessageContaining("expected sequence 3");
        assertThatThrownBy(() -> windows.stage().check(batch(0, 3, 1))).isInstanceOf(InvalidProducerEpochException.class);
        assertThatThrownBy(() -> windows.stage().check(batch(2, 1, 1))).isInstanceOf(OutOfOrderSequenceException.class);
        assertThat(windows.stage().check(batch(2, 0, 1))).isEmpty();
    }

    @Test
    void aStagedViewChangesNothingUntilCommitted() {
        append(batch(0, 0, 1), 0);
        ProducerWindows.Staged s = windows.stage();
        s.record(batch(0, 1, 1), 1);
        assertThat(s.check(batch(0, 2, 1))).isEmpty(); // the view sees its own batch
        assertThat(s.changed()).containsOnlyKeys(7L);
        assertThatThrownBy(() -> windows.stage().check(batch(0, 2, 1))).isInstanceOf(OutOfOrderSequenceException.class);
        s.commit();
        assertThat(windows.stage().check(batch(0, 2, 1))).isEmpty();
    }

    @Test
    void ignoresBatchesWithoutProducerIdOrSequence() {
        BatchHeader plain = new BatchHeader(0, 100, 0, 0, 0, (short) 0, 0, 0, -1, (short) -1, -1, 1);
        ProducerWindows.Staged s = windows.stage();
        assertThat(s.check(plain)).isEmpty();
        s.record(plain, 0);
        s.commit();
        assertThat(windows.size()).isZero();
    }

    @Test
    void restoresAndReplays() {
        windows.restore(7, new ProducerWindows.Producer((short) 3, java.util.List.of(new ProducerWindows.Batch(0, 4, 0, 4))));
        windows.replay(new BatchHeader(0, 100, 5, 1, 0, (short) 0, 0, 0, 7, (short) 3, 5, 2), null);
        assertThat(windows.producers().get(7L).batches()).containsExactly(new ProducerWindows.Batch(0, 4, 0, 4),
                new ProducerWindows.Batch(5, 6, 5, 6));
        assertThat(windows.stage().check(batch(3, 7, 1))).isEmpty();
    }

    /** A marker of producer 7 as the coordinator writes it, at timestamp 9000. */
    private static ByteBuffer marker(int epoch, int coordinatorEpoch, boolean commit) {
        return BatchBuilder.marker(7, (short) epoch, coordinatorEpoch, commit, 9_000);
    }

    private static BatchHeader header(ByteBuffer batch) {
        return RecordBatches.header(batch, 0, 0);
    }

    private void end(ByteBuffer marker, long offset) {
        ProducerWindows.Staged s = windows.stage();
        assertThat(s.check(header(marker), marker)).isEmpty();
        s.record(header(marker), offset, marker);
        s.commit();
    }

    @Test
    void aMarkerOfTheSameEpochKeepsTheSequencesAndRecordsItsCoordinatorEpoch() {
        append(batch(0, 0, 2), 0);
        end(marker(0, 3, true), 2);
        ProducerWindows.Producer p = windows.producers().get(7L);
        assertThat(p).isEqualTo(new ProducerWindows.Producer((short) 0, List.of(new ProducerWindows.Batch(0, 1, 0, 1)),
                9_000, 3));
        assertThat(windows.stage().check(batch(0, 2, 1))).isEmpty();
    }

    @Test
    void aMarkerThatRaisesTheEpochStartsTheSequencesAtZero() {
        append(batch(0, 0, 2), 0);
        end(marker(1, 0, true), 2);
        assertThat(windows.producers().get(7L).batches()).isEmpty();
        assertThatThrownBy(() -> windows.stage().check(batch(1, 2, 1))).isInstanceOf(OutOfOrderSequenceException.class)
                .hasMessageContaining("expected sequence 0");
        assertThatThrownBy(() -> windows.stage().check(batch(0, 2, 1))).as("the old epoch is fenced")
                .isInstanceOf(InvalidProducerEpochException.class);
        assertThat(windows.stage().check(batch(1, 0, 1))).isEmpty();
    }

    @Test
    void refusesAMarkerOfAnOlderEpochOrCoordinatorEpoch() {
        append(batch(2, 0, 1), 0);
        end(marker(2, 5, false), 1);
        ByteBuffer olderEpoch = marker(1, 5, true);
        assertThatThrownBy(() -> windows.stage().check(header(olderEpoch), olderEpoch))
                .isInstanceOf(InvalidProducerEpochException.class).hasMessageContaining("epoch 1");
        ByteBuffer zombie = marker(2, 4, true);
        assertThatThrownBy(() -> windows.stage().check(header(zombie), zombie))
                .isInstanceOf(TransactionCoordinatorFencedException.class).hasMessageContaining("coordinator epoch 4");
        end(marker(3, 5, true), 2); // a newer epoch with the same coordinator
        assertThat(windows.producers().get(7L).coordinatorEpoch()).isEqualTo(5);
    }

    @Test
    void aMarkerMustComeWithItsBytes() {
        ByteBuffer m = marker(0, 0, true);
        assertThatThrownBy(() -> windows.stage().check(header(m), null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void statesJoinTheOpenTransactionsInProducerIdOrder() {
        append(batch(0, 0, 3), 10);
        windows.restore(3, new ProducerWindows.Producer((short) 1, List.of(), 5, 2));
        assertThat(windows.states(Map.of(7L, 10L, 9L, 20L))).containsExactly(
                new ProducerState(3, 1, -1, 5, 2, -1),
                new ProducerState(7, 0, 2, 0, -1, 10),
                new ProducerState(9, -1, -1, -1, -1, 20));
    }
}
