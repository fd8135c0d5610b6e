package io.kaas.engine.segments.internal;

import static io.kaas.engine.segments.internal.LogFixture.append;

import io.kaas.api.storage.LogConfig;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * A measurement, not a test (off by default): the time to open a partition whose active segment holds 1 GiB,
 * after a clean stop, after a crash (the engine abandoned without close, as kill -9 leaves it: no clean-shutdown
 * marker, the recovery checkpoint as the committer last wrote it), and after a crash with no usable checkpoint
 * (the worst case: every batch of the segment is CRC-checked). Run with
 * {@code mvn -o test -f kaas-engine-segments/pom.xml -Dtest=RecoveryTimeMeasurement -Dkaas.measure.recovery=true
 * [-Dkaas.measure.dir=/some/disk]}. Prints one line per case.
 */
@EnabledIfSystemProperty(named = "kaas.measure.recovery", matches = "true")
class RecoveryTimeMeasurement {
    private static final long GIB = 1024L * 1024 * 1024;

    @TempDir
    Path tmp;

    @Test
    void measureRecoveryOfA1GiBActiveSegment() throws Exception {
        Path dataDir = Files.createTempDirectory(Path.of(System.getProperty("kaas.measure.dir", tmp.toString())), "recovery");
        LogConfig config = LogFixture.config(2 * GIB);
        ByteBuffer batch = TestBatches.batch().timestamps(LogFixture.NOW, new long[64]).valueSize(16 * 1024 - 40).build(); // ~1 MiB
        SegmentEngine writer = LogFixture.engine(dataDir, IoHooks.NONE, Map.of("recovery.checkpoint.interval.ms", "5000"),
                new LogFixture.MutableClock(LogFixture.NOW));
        SegmentPartitionLog log = LogFixture.open(writer, config);
        long n = GIB / batch.remaining() + 1;
        long t0 = System.nanoTime();
        for (long i = 0; i < n; i++) {
            append(log, batch.duplicate(), i % 16 == 15);
        }
        append(log, batch.duplicate(), true);
        report("wrote " + (n + 1) + " batches, " + log.state.current().active().size() + " bytes, in", t0, null);
        writer.close();
        measure("clean stop", dataDir, config);

        // kill -9: reopen, append a little, abandon without close (no marker; checkpoint as the committer left it)
        SegmentEngine crashed = LogFixture.engine(dataDir, IoHooks.NONE, Map.of("recovery.checkpoint.interval.ms", "5000"),
                new LogFixture.MutableClock(LogFixture.NOW));
        SegmentPartitionLog again = LogFixture.open(crashed, config);
        for (int i = 0; i < 8; i++) {
            append(again, batch.duplicate(), true);
        }
        Path copy = Files.createTempDirectory(dataDir.getParent(), "crash-copy");
        copyTree(dataDir, copy); // the state a kill -9 leaves, frozen before the abandoned engine does anything else
        Path worst = Files.createTempDirectory(dataDir.getParent(), "crash-nocheckpoint");
        copyTree(dataDir, worst);
        report("active segment " + again.state.current().active().size() + " bytes; kill -9 copies made", System.nanoTime(), null);
        measure("kill -9 (checkpoint as the committer last wrote it)", copy, config);
        Files.deleteIfExists(PartitionDirectory.pathOf(worst, LogFixture.KEY).resolve(PartitionDirectory.CHECKPOINT_FILE));
        measure("kill -9 without a usable checkpoint (full CRC scan)", worst, config);
    }

    private static void measure(String label, Path dataDir, LogConfig config) throws IOException {
        long t0 = System.nanoTime();
        try (SegmentEngine engine = LogFixture.engine(dataDir)) {
            SegmentPartitionLog log = LogFixture.open(engine, config);
            report(label + ": open took", t0, log.recovery());
            // leave it as a crash would again: delete the marker that close writes, so the next case is a crash
        }
        Files.deleteIfExists(PartitionDirectory.pathOf(dataDir, LogFixture.KEY).resolve(PartitionDirectory.CLEAN_SHUTDOWN_FILE));
    }

    private static void report(String what, long t0, LogRecovery.Result r) {
        System.out.printf("RECOVERY-MEASUREMENT %s %.1f ms%s%n", what, (System.nanoTime() - t0) / 1e6,
                r == null ? "" : " (cleanShutdown=" + r.cleanShutdown() + ", scannedBytes=" + r.scannedBytes()
                        + ", scanFrom=" + r.scanFrom() + ", rebuiltIndexes=" + r.rebuiltIndexes() + ")");
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (var walk = Files.walk(from)) {
            for (Path p : walk.toList()) {
                Path dest = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(dest);
                } else {
                    Files.copy(p, dest);
                    try (var ch = java.nio.channels.FileChannel.open(dest, java.nio.file.StandardOpenOption.WRITE)) {
                        ch.force(true); // as the original was: a kill -9 leaves fsynced files, not a dirty page cache
                    }
                }
            }
        }
    }
}
