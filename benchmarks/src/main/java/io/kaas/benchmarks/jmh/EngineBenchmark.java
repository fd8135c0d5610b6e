package io.kaas.benchmarks.jmh;

import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.record.ProducedBatches;
import io.kaas.api.storage.EngineContext;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.LogSlice;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.ReadResult;
import io.kaas.api.storage.StorageEngine;
import io.kaas.engine.segments.SegmentEngineProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Comparator;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The segment engine through its SPI: appending a 10-record batch (page cache only, or fsynced as
 * {@code acks=all}), and reading whole batches at a random offset (the Fetch path: slices, no copy).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class EngineBenchmark {
    private static final int READ_BATCHES = 20_000;

    @Param({"1024", "16384"})
    public int recordSize;

    @Param({"false", "true"})
    public boolean durable;

    private Path dir;
    private StorageEngine engine;
    private PartitionLog appendLog;
    private PartitionLog readLog;
    /** Validated once, as the broker's ProduceHandler does before append; the engine rewrites only its base offset. */
    private ProducedBatches batch;

    @Setup(Level.Trial)
    public void open() throws IOException {
        dir = Files.createTempDirectory("kaas-jmh-engine");
        engine = new SegmentEngineProvider().open(new EngineContext(dir, PluginConfig.of(Map.of()), 1, Clock.systemUTC()));
        appendLog = engine.openPartition(new PartitionKey("append", UUID.randomUUID(), 0), LogConfig.defaults());
        readLog = engine.openPartition(new PartitionKey("read", UUID.randomUUID(), 0), LogConfig.defaults());
        batch = ProducedBatches.validate(Batches.batch(10, recordSize));
        for (int i = 0; i < READ_BATCHES; i++) {
            readLog.append(batch, false).join();
        }
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        engine.close();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    @Benchmark
    public Object append() {
        return appendLog.append(batch, durable).join();
    }

    @Benchmark
    public void readOneMegabyte(Blackhole bh) {
        long hw = readLog.offsets().highWatermark();
        long offset = ThreadLocalRandom.current().nextLong(hw);
        ReadResult r = readLog.read(offset, 1 << 20, hw, true);
        for (LogSlice s : r.slices()) {
            bh.consume(s.sizeInBytes());
        }
    }
}
