package io.kaas.engine.rocksdb.internal;

import com.github.luben.zstd.ZstdOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.function.UnaryOperator;
import java.util.zip.GZIPOutputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;
import org.xerial.snappy.SnappyOutputStream;

/** A producer's compression per codec, for the TCK's batch builder ({@code TestBatches.compressed}). */
final class CompressedBatches {
    private CompressedBatches() {
    }

    static UnaryOperator<byte[]> codec(int codec) {
        return records -> {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (OutputStream out = output(codec, bytes)) {
                out.write(records);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return bytes.toByteArray();
        };
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
