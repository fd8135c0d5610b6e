package io.kaas.wire.protocol;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * What a {@link Records} value writes its bytes to, chunk after chunk. An output copies what it needs or keeps
 * its own reference (a retained duplicate, a file region); it never changes the chunk's indices and never
 * closes the channel.
 */
public interface RecordsOutput {

    /** The readable bytes of {@code bytes}. */
    void write(ByteBuf bytes);

    /** The bytes of {@code bytes} from its position to its limit. */
    void write(ByteBuffer bytes);

    /** {@code count} bytes of {@code channel} from {@code position}; the channel stays its owner's. */
    void write(FileChannel channel, long position, int count);
}
