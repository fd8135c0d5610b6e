package io.kaas.wire.protocol;

import io.netty.buffer.ByteBuf;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/** A records output that copies every chunk at the writer index of one buffer (the copy path: TLS, tests). */
final class CopyingOutput implements RecordsOutput {
    private final ByteBuf buf;

    CopyingOutput(ByteBuf buf) {
        this.buf = buf;
    }

    @Override
    public void write(ByteBuf bytes) {
        buf.writeBytes(bytes, bytes.readerIndex(), bytes.readableBytes());
    }

    @Override
    public void write(ByteBuffer bytes) {
        buf.writeBytes(bytes.duplicate());
    }

    @Override
    public void write(FileChannel channel, long position, int count) {
        copy(buf, channel, position, count);
    }

    /** Reads exactly {@code count} bytes of {@code channel} from {@code position} into {@code buf}. */
    static void copy(ByteBuf buf, FileChannel channel, long position, int count) {
        buf.ensureWritable(count);
        long at = position;
        int left = count;
        try {
            while (left > 0) {
                int n = buf.writeBytes(channel, at, left);
                if (n < 0) {
                    throw new EOFException("end of file at " + at + " while reading " + count + " bytes from " + position);
                }
                at += n;
                left -= n;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
