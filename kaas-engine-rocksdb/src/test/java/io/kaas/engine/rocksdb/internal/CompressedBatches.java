package io.kaas.engine.rocksdb.internal;

import io.kaas.api.record.RecordBatches;
import io.kaas.records.CompressionCodecs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/** Compresses the records of an uncompressed v2 batch as a producer would, fixing length, attributes and CRC. */
final class CompressedBatches {
    private CompressedBatches() {
    }

    static ByteBuffer compress(ByteBuffer batch, int codec) {
        byte[] records = new byte[batch.remaining() - RecordBatches.HEADER_SIZE];
        batch.get(batch.position() + RecordBatches.HEADER_SIZE, records);
        byte[] compressed;
        try {
            compressed = CompressionCodecs.compress(codec, records);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int size = RecordBatches.HEADER_SIZE + compressed.length;
        ByteBuffer out = ByteBuffer.allocate(size);
        out.put(batch.duplicate().limit(batch.position() + RecordBatches.HEADER_SIZE)).put(compressed).flip();
        out.putInt(RecordBatches.LENGTH, size - RecordBatches.LOG_OVERHEAD);
        out.putShort(RecordBatches.ATTRIBUTES,
                (short) ((out.getShort(RecordBatches.ATTRIBUTES) & ~RecordBatches.COMPRESSION_CODEC_MASK) | codec));
        out.putInt(RecordBatches.CRC, (int) RecordBatches.crc(out, 0, size));
        return out;
    }
}
