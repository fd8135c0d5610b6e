package io.kaas.engine.segments.internal;

import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.record.ProducedBatches;
import io.kaas.api.record.RecordBatches;
import io.kaas.api.storage.AppendResult;
import io.kaas.api.storage.EngineContext;
import io.kaas.api.storage.FileSlice;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.LogSlice;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.ProducerExpiration;
import io.kaas.api.storage.ReadResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/** Opens engines and partitions over a temp directory, and turns read results into bytes. */
final class LogFixture {
    static final UUID TOPIC_ID = UUID.fromString("00000000-0000-0000-0000-000000000001");
    static final PartitionKey KEY = new PartitionKey("orders", TOPIC_ID, 0);
    static final long NOW = 1_700_000_000_000L;

    private LogFixture() {
    }

    static SegmentEngine engine(Path dataDir) throws IOException {
        return engine(dataDir, IoHooks.NONE);
    }

    static SegmentEngine engine(Path dataDir, IoHooks hooks) throws IOException {
        return engine(dataDir, hooks, Map.of(), Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC));
    }

    /** An engine with extra engine settings (keys without the {@code storage.segments.} prefix) and a clock. */
    static SegmentEngine engine(Path dataDir, IoHooks hooks, Map<String, String> settings, Clock clock) throws IOException {
        Map<String, String> all = new java.util.HashMap<>(settings);
        all.putIfAbsent("deleted.segment.close.delay.ms", "0");
        return new SegmentEngine(new EngineContext(dataDir, PluginConfig.of(all), 1, clock), hooks);
    }

    /** An engine whose idle producers expire as {@code expiration} says, with {@code clock}. */
    static SegmentEngine engine(Path dataDir, Clock clock, ProducerExpiration expiration) throws IOException {
        return new SegmentEngine(new EngineContext(dataDir, PluginConfig.of(Map.of("deleted.segment.close.delay.ms", "0")),
                1, clock, expiration), IoHooks.NONE);
    }

    /** A clock tests move by hand. */
    static final class MutableClock extends Clock {
        private volatile long millis;

        MutableClock(long millis) {
            this.millis = millis;
        }

        void advance(long ms) {
            millis += ms;
        }

        @Override
        public long millis() {
            return millis;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis);
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }

    /** A LogConfig with the given segment and retention settings, Kafka defaults otherwise. */
    static LogConfig config(long segmentBytes, long segmentMs, long retentionMs, long retentionBytes, long flushMessages,
                            boolean logAppendTime) {
        LogConfig d = LogConfig.defaults();
        return new LogConfig(segmentBytes, segmentMs, retentionMs, retentionBytes, d.maxMessageBytes(), flushMessages,
                logAppendTime, false);
    }

    static LogConfig config(long segmentBytes) {
        LogConfig d = LogConfig.defaults();
        return new LogConfig(segmentBytes, d.segmentMs(), d.retentionMs(), d.retentionBytes(), d.maxMessageBytes(),
                d.flushMessages(), false, false);
    }

    static SegmentPartitionLog open(SegmentEngine engine, LogConfig config) throws IOException {
        return (SegmentPartitionLog) engine.openPartition(KEY, config);
    }

    static AppendResult append(SegmentPartitionLog log, ByteBuffer batches, boolean durable) {
        try {
            return log.append(ProducedBatches.validate(batches), durable).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new CompletionException(e.getCause() != null ? e.getCause() : e);
        }
    }

    static <T> T join(CompletableFuture<T> f) {
        try {
            return f.get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new CompletionException(e.getCause() != null ? e.getCause() : e);
        }
    }

    /** The bytes of all slices, read from their channels. */
    static byte[] bytes(ReadResult result) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (LogSlice s : result.slices()) {
            FileSlice fs = (FileSlice) s;
            ByteBuffer buf = ByteBuffer.allocate(fs.sizeInBytes());
            try {
                while (buf.hasRemaining()) {
                    int n = fs.channel().read(buf, fs.position() + buf.position());
                    if (n < 0) {
                        throw new IOException("EOF");
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            out.writeBytes(buf.array());
        }
        return out.toByteArray();
    }

    static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    /** Base offsets of the batches in {@code data}. */
    static long[] baseOffsets(byte[] data) {
        java.util.List<Long> out = new java.util.ArrayList<>();
        RecordBatches.headers(ByteBuffer.wrap(data)).forEach(h -> out.add(h.baseOffset()));
        return out.stream().mapToLong(Long::longValue).toArray();
    }
}
