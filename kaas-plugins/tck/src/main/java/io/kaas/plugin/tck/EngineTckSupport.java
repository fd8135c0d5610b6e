package io.kaas.plugin.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.record.ProducedBatches;
import io.kaas.api.storage.AppendResult;
import io.kaas.api.storage.EngineContext;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.api.storage.ProducerExpiration;
import io.kaas.api.storage.ReadResult;
import io.kaas.api.storage.StorageEngine;
import io.kaas.api.storage.StorageEngineProvider;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fixture under {@link StorageEngineTck}: one engine per test over a fresh data directory,
 * reopened on demand, and helpers that wait for futures and accept an error either thrown or
 * delivered through the future, as the SPI allows both.
 */
public abstract class EngineTckSupport {
    /** How long any single future may take before the TCK calls it hung. */
    protected static final long TIMEOUT_SECONDS = 30;
    /** The time the TCK's clock shows; log-append time stamps must equal it. */
    protected static final long CLOCK_MILLIS = 1_700_000_000_000L;

    private static final AtomicInteger TOPICS = new AtomicInteger();

    @TempDir
    protected Path dataDir;

    /** The engine under test; opened before each test, closed after it. */
    protected StorageEngine engine;

    /** Set by {@link #restartWith}: the clock and producer expiration of this test's later engines. */
    private Clock clockOverride;
    private ProducerExpiration producerExpiration = ProducerExpiration.KAFKA_DEFAULTS;

    /** The provider of the engine under test: a new instance, as ServiceLoader would create it. */
    protected abstract StorageEngineProvider provider();

    /** The engine's settings (keys under {@code storage.<name>.}, prefix removed). Default: none. */
    protected PluginConfig config() {
        return PluginConfig.empty();
    }

    /** Whether the engine implements {@code capability}; by default the capabilities required by default. */
    protected boolean supports(EngineCapability capability) {
        return capability.requiredByDefault();
    }

    /** The clock handed to the engine: fixed at {@link #CLOCK_MILLIS}. */
    protected Clock clock() {
        return Clock.fixed(Instant.ofEpochMilli(CLOCK_MILLIS), ZoneOffset.UTC);
    }

    @BeforeEach
    final void openEngine() throws IOException {
        engine = openNewEngine();
    }

    @AfterEach
    final void closeEngine() throws IOException {
        if (engine != null) {
            StorageEngine e = engine;
            engine = null;
            e.close();
        }
    }

    /**
     * Opens an engine over {@link #dataDir} through the provider, with {@link #clock()} and Kafka's default producer
     * expiration, or what {@link #restartWith} set.
     */
    protected StorageEngine openNewEngine() throws IOException {
        StorageEngine opened = provider().open(new EngineContext(dataDir, config(), 1,
                clockOverride != null ? clockOverride : clock(), producerExpiration));
        assertThat(opened).as("provider %s opened no engine", provider().name()).isNotNull();
        return opened;
    }

    /** Closes the engine and opens a new one over the same data directory, as a restart does. */
    protected void restart() throws IOException {
        closeEngine();
        engine = openNewEngine();
    }

    /**
     * Closes the engine and opens a new one over the same data directory with this clock and producer expiration
     * ({@code producer.id.expiration.ms} and its check interval), which the test's later {@link #restart}s keep.
     */
    protected void restartWith(Clock clock, ProducerExpiration expiration) throws IOException {
        clockOverride = clock;
        producerExpiration = expiration;
        restart();
    }

    /** A partition of a topic no other test uses. */
    protected static PartitionKey newKey() {
        return new PartitionKey("tck-topic-" + TOPICS.incrementAndGet(), UUID.randomUUID(), 0);
    }

    /** A fresh partition with Kafka's default settings. */
    protected PartitionLog newPartition() throws IOException {
        return engine.openPartition(newKey(), LogConfig.defaults());
    }

    protected static <T> T await(CompletableFuture<T> future) {
        assertThat(future).as("the engine returned no future").isNotNull();
        try {
            return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError("the engine failed an operation the contract allows: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError("no completion within " + TIMEOUT_SECONDS + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** The batches as the broker hands them to {@code append}: validated, headers parsed once. */
    protected static ProducedBatches produced(ByteBuffer batches) {
        return ProducedBatches.validate(batches);
    }

    protected static AppendResult append(PartitionLog log, ByteBuffer batches) {
        return await(log.append(produced(batches), false));
    }

    protected static AppendResult appendDurably(PartitionLog log, ByteBuffer batches) {
        return await(log.append(produced(batches), true));
    }

    /**
     * Asserts that {@code call} fails with {@code type}, thrown at once or through its future.
     *
     * @return the error, for further checks
     */
    protected static <E extends Throwable> E assertFailsWith(Class<E> type, Callable<? extends CompletableFuture<?>> call) {
        CompletableFuture<?> future;
        try {
            future = call.call();
        } catch (Throwable t) {
            assertThat(t).as("thrown at once").isInstanceOf(type);
            return type.cast(t);
        }
        try {
            Object value = future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return fail("expected %s, but the operation completed with %s", type.getSimpleName(), value);
        } catch (ExecutionException e) {
            assertThat(e.getCause()).as("the future's failure").isInstanceOf(type);
            return type.cast(e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError("no completion within " + TIMEOUT_SECONDS + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** Every batch from the log start to the high watermark, read in pieces as a consumer does. */
    protected static List<byte[]> readAll(PartitionLog log) {
        List<byte[]> out = new ArrayList<>();
        long offset = log.offsets().logStartOffset();
        long hw = log.offsets().highWatermark();
        while (offset < hw) {
            ReadResult r = log.read(offset, 64 * 1024, hw, true);
            List<byte[]> batches = Slices.batches(r);
            assertThat(batches).as("read at %d below the high watermark %d", offset, hw).isNotEmpty();
            out.addAll(batches);
            var last = Slices.headers(r).get(batches.size() - 1);
            offset = last.nextOffset();
        }
        return out;
    }

    /** The bytes an engine must store for {@code original} at {@code baseOffset}, leader epoch masked. */
    protected static byte[] stored(byte[] original, long baseOffset) {
        return maskLeaderEpoch(TestBatches.withBaseOffset(ByteBuffer.wrap(original), baseOffset));
    }

    /**
     * Zeroes the partition-leader-epoch field (bytes 12-15): an engine may stamp its leader epoch on
     * a batch, as Kafka does; the CRC does not cover it. Every other byte must come back as sent.
     */
    protected static byte[] maskLeaderEpoch(byte[] batch) {
        byte[] copy = batch.clone();
        for (int i = 12; i < 16; i++) {
            copy[i] = 0;
        }
        return copy;
    }

    /** A copy of {@code c} with another {@code max.message.bytes}. */
    protected static LogConfig withMaxMessageBytes(LogConfig c, int maxMessageBytes) {
        return new LogConfig(c.segmentBytes(), c.segmentMs(), c.retentionMs(), c.retentionBytes(), maxMessageBytes,
                c.flushMessages(), c.logAppendTime(), c.compact());
    }

    /** A copy of {@code c} with log-append time on. */
    protected static LogConfig withLogAppendTime(LogConfig c) {
        return new LogConfig(c.segmentBytes(), c.segmentMs(), c.retentionMs(), c.retentionBytes(), c.maxMessageBytes(),
                c.flushMessages(), true, c.compact());
    }
}
