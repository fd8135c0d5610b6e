package io.kaas.broker.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.storage.PartitionKey;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class OpeningProgressTest {
    private static final UUID ID = new UUID(1, 2);
    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    private PartitionKey p(int i) {
        return new PartitionKey("orders", ID, i);
    }

    private void advanceMs(long ms) {
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(ms));
    }

    @Test
    void aLongPassReportsEveryIntervalThenItsTotalTime() {
        OpeningProgress progress = new OpeningProgress(4, true, now::get, 5_000);
        advanceMs(2_000);
        assertThat(progress.partitionDone(p(0), true, ms(2_000))).as("before the first interval").isNull();
        advanceMs(4_000);
        assertThat(progress.partitionDone(p(1), false, ms(4_000))).isEqualTo("Opening partitions: opened 1 of 4 "
                + "partitions (1 failed, to be retried), 6 s so far; the slowest, " + p(1) + ", took 4000 ms");
        advanceMs(1_000);
        assertThat(progress.partitionDone(p(2), true, ms(1_000))).as("within the next interval").isNull();
        advanceMs(9_000);
        assertThat(progress.partitionDone(p(3), true, ms(9_000))).as("the last one: the end line says it").isNull();
        assertThat(progress.finished()).isEqualTo("Opened 3 of 4 partitions in 16000 ms (1 failed, to be retried); "
                + "the slowest, " + p(3) + ", took 9000 ms");
    }

    @Test
    void theStartUpPassAlwaysLogsItsEndALaterShortOneDoesNot() {
        OpeningProgress startUp = new OpeningProgress(1, true, now::get, 5_000);
        advanceMs(30);
        startUp.partitionDone(p(0), true, ms(30));
        assertThat(startUp.finished()).isEqualTo("Opened 1 of 1 partitions in 30 ms (0 failed, to be retried); "
                + "the slowest, " + p(0) + ", took 30 ms");

        OpeningProgress later = new OpeningProgress(2, false, now::get, 5_000);
        advanceMs(100);
        later.partitionDone(p(0), true, ms(100));
        later.partitionDone(p(1), true, 0);
        assertThat(later.finished()).isNull();
    }

    @Test
    void aLaterLongPassLogsItsEndAndAPassWithNothingToOpenLogsNothing() {
        OpeningProgress takeover = new OpeningProgress(3, false, now::get, 5_000);
        advanceMs(6_000);
        assertThat(takeover.partitionDone(p(0), true, ms(6_000))).startsWith("Opening partitions: opened 1 of 3");
        takeover.partitionDone(p(1), true, 0);
        takeover.partitionDone(p(2), true, 0);
        assertThat(takeover.finished()).startsWith("Opened 3 of 3 partitions in 6000 ms");

        assertThat(new OpeningProgress(0, true, now::get, 5_000).finished()).isNull();
    }

    private static long ms(long ms) {
        return TimeUnit.MILLISECONDS.toNanos(ms);
    }
}
