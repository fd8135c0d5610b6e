package io.kaas.engine.segments.internal;

import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.storage.AppendResult;
import io.kaas.api.storage.EngineContext;
import io.kaas.api.storage.FileSlice;
import io.kaas.api.storage.LogConfig;
import io.kaas.api.storage.LogSlice;
import io.kaas.api.storage.PartitionKey;
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
        Clock clock = Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC);
        return new SegmentEngine(new EngineContext(dataDir, PluginConfig.of(Map.of("deleted.segment.close.delay.ms", "0")),
                1, clock), hooks);
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
            return log.append(batches, durable).get(10, TimeUnit.SECONDS);
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
        ByteBuffer b = ByteBuffer.wrap(data);
        java.util.List<Long> out = new java.util.ArrayList<>();
        int pos = 0;
        while (pos < data.length) {
            out.add(b.getLong(pos));
            pos += b.getInt(pos + 8) + 12;
        }
        return out.stream().mapToLong(Long::longValue).toArray();
    }
}
