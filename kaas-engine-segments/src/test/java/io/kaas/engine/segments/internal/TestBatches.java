package io.kaas.engine.segments.internal;

import io.kaas.records.CompressionCodecs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.function.UnaryOperator;

/**
 * The TCK's v2 batch builder ({@link io.kaas.plugin.tck.TestBatches}) with this engine's codecs, so that a test
 * can compress with snappy, lz4 and zstd too ({@link #compressed}).
 */
final class TestBatches {
    private final io.kaas.plugin.tck.TestBatches batch = io.kaas.plugin.tck.TestBatches.batch();

    private TestBatches() {
    }

    static TestBatches batch() {
        return new TestBatches();
    }

    TestBatches records(int n) {
        batch.records(n);
        return this;
    }

    TestBatches valueSize(int bytes) {
        batch.valueSize(bytes);
        return this;
    }

    TestBatches timestamps(long base, long... deltas) {
        batch.timestamps(base, deltas);
        return this;
    }

    TestBatches producer(long id, int epoch, int sequence) {
        batch.producer(id, epoch, sequence);
        return this;
    }

    /** Compresses the records with {@code compressionCodec} (1 gzip, 2 snappy, 3 lz4, 4 zstd), as a producer does. */
    TestBatches compressed(int compressionCodec) {
        batch.compressed(compressionCodec, codec(compressionCodec));
        return this;
    }

    /** Sets the codec bits without compressing: a batch whose payload is not what its attributes say. */
    TestBatches codecBitsOnly(int compressionCodec) {
        batch.compressionAttribute(compressionCodec);
        return this;
    }

    ByteBuffer build() {
        return batch.build();
    }

    /** The engine's own compression for {@code compressionCodec}, for the TCK's builder. */
    static UnaryOperator<byte[]> codec(int compressionCodec) {
        return records -> {
            try {
                return CompressionCodecs.compress(compressionCodec, records);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    static ByteBuffer concat(ByteBuffer... batches) {
        return io.kaas.plugin.tck.TestBatches.concat(batches);
    }
}
