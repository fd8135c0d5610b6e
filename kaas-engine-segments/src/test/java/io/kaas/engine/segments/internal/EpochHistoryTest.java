package io.kaas.engine.segments.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.storage.EpochStart;
import org.junit.jupiter.api.Test;

/** The epoch history file: its format, what counts under it, and the bad input it refuses. */
class EpochHistoryTest {
    private final EpochHistory history = EpochHistory.EMPTY.with(1, 0).with(2, 8).with(5, 12);

    @Test
    void encodesAsKafkasLeaderEpochCheckpointAndDecodesBack() {
        assertThat(history.encode()).isEqualTo("0\n3\n1 0\n2 8\n5 12\n");
        assertThat(EpochHistory.decode(history.encode()).entries()).isEqualTo(history.entries());
        assertThat(EpochHistory.decode("0\n0\n").isEmpty()).isTrue();
    }

    @Test
    void aFileOfAnEpochCountsBelowTheNextEpochsStartOnly() {
        assertThat(history.nextStart(1)).isEqualTo(8);
        assertThat(history.nextStart(3)).isEqualTo(12); // an epoch with no entry: bounded by the next one recorded
        assertThat(history.nextStart(5)).isEqualTo(Long.MAX_VALUE);
        assertThat(history.counts(1, 6)).isTrue();
        assertThat(history.counts(1, 8)).isFalse(); // a fenced writer's late roll
        assertThat(history.counts(0, 0)).isFalse(); // epoch 1 starts at 0: nothing of epoch 0 counts
        assertThat(history.lastEpoch()).isEqualTo(5);
    }

    @Test
    void trimmingForTheLogStartDropsWhollyOlderEpochsAndClampsTheFirst() {
        assertThat(history.trimmedBelow(0).entries()).isEqualTo(history.entries());
        assertThat(history.trimmedBelow(8).entries()).containsExactly(new EpochStart(2, 8), new EpochStart(5, 12));
        assertThat(history.trimmedBelow(10).entries()).containsExactly(new EpochStart(2, 10), new EpochStart(5, 12));
        assertThat(history.trimmedBelow(20).entries()).containsExactly(new EpochStart(5, 20));
    }

    @Test
    void aNewEpochMustBeAboveTheLastAndDropsEntriesStartingAfterIt() {
        assertThatThrownBy(() -> history.with(5, 20)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("epoch 5");
        assertThat(history.with(6, 10).entries()).containsExactly(new EpochStart(1, 0), new EpochStart(2, 8),
                new EpochStart(6, 10));
    }

    @Test
    void refusesMalformedFiles() {
        assertThatThrownBy(() -> EpochHistory.decode("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> EpochHistory.decode("1\n0\n")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("version 0");
        assertThatThrownBy(() -> EpochHistory.decode("0\n2\n1 0\n")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected 2 entries");
        assertThatThrownBy(() -> EpochHistory.decode("0\n1\n1\n")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bad entry");
        assertThatThrownBy(() -> EpochHistory.decode("0\n2\n2 5\n1 9\n")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not follow");
        assertThatThrownBy(() -> EpochHistory.decode("0\n1\n-1 0\n")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> EpochHistory.decode("0\nx\n")).isInstanceOf(IllegalArgumentException.class);
    }
}
