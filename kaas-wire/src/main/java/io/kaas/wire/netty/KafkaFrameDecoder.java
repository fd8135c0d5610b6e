package io.kaas.wire.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Splits the inbound byte stream into frames: an int32 big-endian size, then that many bytes. Emits each frame
 * body (without the prefix) as a retained slice that the next handler must release.
 *
 * <p>A negative size raises {@link CorruptFrameException}, a size above the cap {@link FrameTooLargeException};
 * the size is checked before any of the body is buffered. After either, the decoder discards all further input:
 * the connection is beyond repair and should be closed. One instance per channel (not sharable).
 */
public final class KafkaFrameDecoder extends ByteToMessageDecoder {

    /** Kafka's default {@code socket.request.max.bytes}. */
    public static final int DEFAULT_MAX_FRAME_SIZE = 100 * 1024 * 1024;

    private final int maxFrameSize;
    private boolean failed;

    public KafkaFrameDecoder(int maxFrameSize) {
        if (maxFrameSize < 0) {
            throw new IllegalArgumentException("maxFrameSize must not be negative: " + maxFrameSize);
        }
        this.maxFrameSize = maxFrameSize;
    }

    public int maxFrameSize() {
        return maxFrameSize;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (in.readableBytes() < 4) {
            return;
        }
        int size = in.getInt(in.readerIndex());
        if (size < 0) {
            fail(in);
            throw new CorruptFrameException("negative frame size " + size);
        }
        if (size > maxFrameSize) {
            fail(in);
            throw new FrameTooLargeException(size, maxFrameSize);
        }
        if (in.readableBytes() - 4 < size) {
            return;
        }
        in.skipBytes(4);
        out.add(in.readRetainedSlice(size));
    }

    private void fail(ByteBuf in) {
        failed = true;
        in.skipBytes(in.readableBytes());
    }
}
