package io.kaas.engine.segments.internal;

import static io.kaas.engine.segments.internal.LogFixture.append;
import static io.kaas.engine.segments.internal.LogFixture.join;
import static io.kaas.engine.segments.internal.TestBatches.batch;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.TimestampOffset;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ListOffsets by timestamp and MAX_TIMESTAMP through the time index, checked against a brute-force model. */
class TimeIndexTest {
    @TempDir
    Path dataDir;
    SegmentEngine engine;

    @BeforeEach
    void openEngine() throws IOException {
        engine = LogFixture.engine(dataDir);
    }

    @AfterEach
    void closeEngine() throws IOException {
        engine.close();
    }

    @Test
    void lookupsAcrossManySegmentsMatchAFullScanAndSurviveReopen() throws IOException {
        LogConfig config = LogFixture.config(20_000);
        SegmentPartitionLog log = LogFixture.open(engine, config);
        Random random = new Random(42);
        int n = 600;
        long[] ts = new long[2 * n];
        for (int i = 0; i < n; i++) {
            long base = 10_000 + i * 10L + random.nextInt(40) - 20; // mostly rising, with disorder
            long d2 = random.nextInt(30) - 10;
            ts[2 * i] = base;
            ts[2 * i + 1] = base + d2;
            append(log, batch().timestamps(base, 0, d2).valueSize(100).build(), false);
        }
        assertThat(timeIndexFiles()).hasSizeGreaterThan(5);
        assertMatchesModel(log, ts, 0);

        engine.close();
        engine = LogFixture.engine(dataDir);
        SegmentPartitionLog reopened = LogFixture.open(engine, config);
        assertMatchesModel(reopened, ts, 0);

        join(reopened.deleteRecordsBefore(301));
        assertMatchesModel(reopened, ts, 301);
    }

    @Test
    void logAppendTimeTopicsAnswerWithTheBrokerTime() throws IOException {
        SegmentPartitionLog log = LogFixture.open(engine, LogFixture.config(300, 7L * 24 * 3600 * 1000, -1, -1, 1, true));
        for (int i = 0; i < 5; i++) {
            append(log, batch().timestamps(5, 0, 1).valueSize(100).build(), false);
        }
        assertThat(log.offsetForTimestamp(6).orElseThrow().offset()).isEqualTo(0);
        assertThat(log.offsetForTimestamp(LogFixture.NOW).orElseThrow()).isEqualTo(new TimestampOffset(LogFixture.NOW, 0, -1));
        assertThat(log.offsetForTimestamp(LogFixture.NOW + 1)).isEmpty();
        assertThat(log.maxTimestamp().orElseThrow()).isEqualTo(new TimestampOffset(LogFixture.NOW, 0, -1));
    }

    private static void assertMatchesModel(SegmentPartitionLog log, long[] ts, long logStart) {
        for (long target = 9_950; target <= 16_100; target += 7) {
            Optional<TimestampOffset> expected = Optional.empty();
            for (int o = (int) logStart; o < ts.length; o++) {
                if (ts[o] >= target) {
                    expected = Optional.of(new TimestampOffset(ts[o], o, -1));
                    break;
                }
            }
            assertThat(log.offsetForTimestamp(target)).as("target %d", target).isEqualTo(expected);
        }
        int best = (int) logStart;
        for (int o = (int) logStart; o < ts.length; o++) {
            if (ts[o] > ts[best]) {
                best = o;
            }
        }
        assertThat(log.maxTimestamp()).contains(new TimestampOffset(ts[best], best, -1));
    }

    private java.util.List<Path> timeIndexFiles() throws IOException {
        try (Stream<Path> s = Files.list(dataDir.resolve("orders/0"))) {
            return s.filter(p -> p.toString().endsWith(".timeindex")).toList();
        }
    }
}
