package io.kaas.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.storage.InvalidProducerEpochException;
import io.kaas.api.storage.OutOfOrderSequenceException;
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
        windows.replay(new BatchHeader(0, 100, 5, 1, 0, (short) 0, 0, 0, 7, (short) 3, 5, 2));
        assertThat(windows.producers().get(7L).batches()).containsExactly(new ProducerWindows.Batch(0, 4, 0, 4),
                new ProducerWindows.Batch(5, 6, 5, 6));
        assertThat(windows.stage().check(batch(3, 7, 1))).isEmpty();
    }
}
