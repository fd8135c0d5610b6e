package io.kaas.engine.segments.internal;

import static io.kaas.engine.segments.internal.LogFixture.append;
import static io.kaas.engine.segments.internal.TestBatches.batch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.storage.AppendResult;
import io.kaas.api.storage.InvalidProducerEpochException;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.OutOfOrderSequenceException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IdempotenceTest {
    @TempDir
    Path dataDir;
    SegmentEngine engine;
    SegmentPartitionLog log;

    @BeforeEach
    void open() throws IOException {
        engine = LogFixture.engine(dataDir);
        log = LogFixture.open(engine, LogConfig.defaults());
    }

    @AfterEach
    void close() throws IOException {
        engine.close();
    }

    @Test
    void aDuplicateBatchGetsItsOriginalOffsetsAndIsNotWritten() throws IOException {
        append(log, batch().records(3).producer(1, 0, 0).build(), true);
        append(log, batch().records(2).producer(1, 0, 3).build(), true);
        long size = Files.size(logFile());

        AppendResult again = append(log, batch().records(3).producer(1, 0, 0).build(), true);

        assertThat(again.baseOffset()).isEqualTo(0);
        assertThat(again.lastOffset()).isEqualTo(2);
        assertThat(log.offsets().highWatermark()).isEqualTo(5);
        assertThat(Files.size(logFile())).isEqualTo(size);
    }

    @Test
    void aGapInSequencesIsOutOfOrder() {
        append(log, batch().records(3).producer(1, 0, 0).build(), true);

        assertThatThrownBy(() -> append(log, batch().producer(1, 0, 5).build(), true))
                .hasCauseInstanceOf(OutOfOrderSequenceException.class);
        assertThat(log.offsets().highWatermark()).isEqualTo(3);
    }

    @Test
    void anOlderEpochIsRejectedAndANewEpochMustStartAtZero() {
        append(log, batch().producer(1, 4, 0).build(), true);

        assertThatThrownBy(() -> append(log, batch().producer(1, 3, 1).build(), true))
                .hasCauseInstanceOf(InvalidProducerEpochException.class);
        assertThatThrownBy(() -> append(log, batch().producer(1, 5, 1).build(), true))
                .hasCauseInstanceOf(OutOfOrderSequenceException.class);
        assertThat(append(log, batch().producer(1, 5, 0).build(), true).baseOffset()).isEqualTo(1);
    }

    @Test
    void anUnknownProducerMayStartAnywhereAndSequencesWrapAfterMaxInt() {
        append(log, batch().records(2).producer(9, 0, Integer.MAX_VALUE - 1).build(), true);

        assertThat(append(log, batch().producer(9, 0, 0).build(), true).baseOffset()).isEqualTo(2);
    }

    @Test
    void onlyTheLastFiveBatchesAreRemembered() {
        for (int i = 0; i < 6; i++) {
            append(log, batch().producer(2, 0, i).build(), true);
        }
        assertThat(append(log, batch().producer(2, 0, 1).build(), true).baseOffset()).isEqualTo(1);
        assertThatThrownBy(() -> append(log, batch().producer(2, 0, 0).build(), true))
                .hasCauseInstanceOf(OutOfOrderSequenceException.class);
    }

    private Path logFile() {
        return dataDir.resolve("orders/0/00000000-00000000000000000000.log");
    }
}
