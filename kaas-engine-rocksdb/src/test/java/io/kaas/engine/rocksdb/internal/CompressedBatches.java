package io.kaas.engine.rocksdb.internal;

import com.github.luben.zstd.ZstdOutputStream;
import io.kaas.api.record.RecordBatches;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.zip.GZIPOutputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;
import org.xerial.snappy.SnappyOutputStream;

/** Compresses the records of an uncompressed v2 batch as a producer would, fixing length, attributes and CRC. */
final class CompressedBatches {
    private static final int LENGTH = 8;
    private static final int CRC = 17;
    private static final int ATTRIBUTES = 21;

    private CompressedBatches() {
    }

    static ByteBuffer compress(ByteBuffer batch, int codec) {
        byte[] records = new byte[batch.remaining() - RecordBatches.HEADER_SIZE];
        batch.get(batch.position() + RecordBatches.HEADER_SIZE, records);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = output(codec, bytes)) {
            out.write(records);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        byte[] compressed = bytes.toByteArray();
        int size = RecordBatches.HEADER_SIZE + compressed.length;
        ByteBuffer out = ByteBuffer.allocate(size);
        out.put(batch.duplicate().limit(batch.position() + RecordBatches.HEADER_SIZE)).put(compressed).flip();
        out.putInt(LENGTH, size - RecordBatches.LOG_OVERHEAD);
        out.putShort(ATTRIBUTES, (short) ((out.getShort(ATTRIBUTES) & ~0x07) | codec));
        out.putInt(CRC, (int) RecordBatches.crc(out, 0, size));
        return out;
    }

    private static OutputStream output(int codec, OutputStream raw) throws IOException {
        return switch (codec) {
            case Compression.GZIP -> new GZIPOutputStream(raw);
            case Compression.SNAPPY -> new SnappyOutputStream(raw);
            case Compression.LZ4 -> new LZ4FrameOutputStream(raw, LZ4FrameOutputStream.BLOCKSIZE.SIZE_64KB,
                    LZ4FrameOutputStream.FLG.Bits.BLOCK_INDEPENDENCE);
            case Compression.ZSTD -> new ZstdOutputStream(raw);
            default -> throw new IllegalArgumentException("codec " + codec);
        };
    }
}
