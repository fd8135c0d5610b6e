package io.kaas.records;

import com.github.luben.zstd.ZstdInputStream;
import com.github.luben.zstd.ZstdOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import net.jpountz.lz4.LZ4FrameInputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;
import org.xerial.snappy.SnappyInputStream;
import org.xerial.snappy.SnappyOutputStream;

/**
 * The record-batch compression codecs of Kafka (attribute bits 0-2): 0 none, 1 gzip (JDK), 2 snappy
 * (snappy-java's stream format, as Kafka writes it), 3 lz4 (the LZ4 frame format, 64 KiB independent
 * blocks, as Kafka's {@code KafkaLZ4BlockOutputStream}), 4 zstd (zstd-jni frames). A codec's library is
 * loaded only when a batch of that codec is met: the caller puts snappy-java, lz4-java and zstd-jni on
 * its path. Stateless and thread-safe.
 */
public final class CompressionCodecs {
    public static final int NONE = 0;
    public static final int GZIP = 1;
    public static final int SNAPPY = 2;
    public static final int LZ4 = 3;
    public static final int ZSTD = 4;

    private CompressionCodecs() {
    }

    /** Decompresses a records section; a copy of the bytes for {@link #NONE}. */
    public static byte[] decompress(int codec, byte[] data, int offset, int length) throws IOException {
        if (codec == NONE) {
            return Arrays.copyOfRange(data, offset, offset + length);
        }
        try (InputStream in = decompressing(codec, new ByteArrayInputStream(data, offset, length))) {
            return in.readAllBytes();
        }
    }

    /** Compresses a records section with {@code codec}; {@code data} itself for {@link #NONE}. */
    public static byte[] compress(int codec, byte[] data) throws IOException {
        if (codec == NONE) {
            return data;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(Math.max(64, data.length / 2));
        try (OutputStream out = compressing(codec, bytes)) {
            out.write(data);
        }
        return bytes.toByteArray();
    }

    /** A stream of the decompressed records section read from {@code raw}; {@code raw} itself for {@link #NONE}. */
    public static InputStream decompressing(int codec, InputStream raw) throws IOException {
        return switch (codec) {
            case NONE -> raw;
            case GZIP -> new GZIPInputStream(raw, 8192);
            case SNAPPY -> new SnappyInputStream(raw);
            case LZ4 -> new LZ4FrameInputStream(raw);
            case ZSTD -> new ZstdInputStream(raw);
            default -> throw new IOException("unknown compression codec " + codec);
        };
    }

    private static OutputStream compressing(int codec, OutputStream raw) throws IOException {
        return switch (codec) {
            case GZIP -> new GZIPOutputStream(raw, 8192);
            case SNAPPY -> new SnappyOutputStream(raw);
            case LZ4 -> new LZ4FrameOutputStream(raw, LZ4FrameOutputStream.BLOCKSIZE.SIZE_64KB,
                    LZ4FrameOutputStream.FLG.Bits.BLOCK_INDEPENDENCE);
            case ZSTD -> new ZstdOutputStream(raw);
            default -> throw new IOException("unknown compression codec " + codec);
        };
    }
}
