package io.kaas.engine.rocksdb.internal;

import com.github.luben.zstd.ZstdInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;
import net.jpountz.lz4.LZ4FrameInputStream;
import org.xerial.snappy.SnappyInputStream;

/**
 * Decompression of a record batch's records section, by Kafka's codec bits (attributes 0-2): 1 gzip (JDK),
 * 2 snappy (snappy-java's stream format, as Kafka writes it), 3 lz4 (LZ4 frames), 4 zstd (zstd-jni).
 * Only timestamp lookups use it; stored batches are never rewritten. Stateless and thread-safe.
 */
final class Compression {
    static final int NONE = 0;
    static final int GZIP = 1;
    static final int SNAPPY = 2;
    static final int LZ4 = 3;
    static final int ZSTD = 4;

    private Compression() {
    }

    /** A stream of the decompressed records read from {@code raw}; {@code raw} itself for {@link #NONE}. */
    static InputStream decompressing(int codec, InputStream raw) throws IOException {
        return switch (codec) {
            case NONE -> raw;
            case GZIP -> new GZIPInputStream(raw, 8192);
            case SNAPPY -> new SnappyInputStream(raw);
            case LZ4 -> new LZ4FrameInputStream(raw);
            case ZSTD -> new ZstdInputStream(raw);
            default -> throw new IOException("unknown compression codec " + codec);
        };
    }
}
