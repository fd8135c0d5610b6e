package io.kaas.engine.rocksdb.internal;

import io.kaas.records.CompressionCodecs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.UnaryOperator;

/** A producer's compression per codec, for the TCK's batch builder ({@code TestBatches.compressed}). */
final class CompressedBatches {
    private CompressedBatches() {
    }

    static UnaryOperator<byte[]> codec(int codec) {
        return records -> {
            try {
                return CompressionCodecs.compress(codec, records);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }
}
