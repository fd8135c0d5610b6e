package io.kaas.wire.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.ReferenceCountUtil;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * The records writer of {@link ResponseWriter#writeParts}: the encoder writes everything but record bytes into
 * one frame buffer; at each records field this cuts the frame after the field's length prefix (a retained
 * slice, no copy) and appends the records' chunks as parts of their own — buffers as retained duplicates or
 * wrappers, file regions as {@link SharedFileRegion}s. The result is an ordered list of {@code ByteBuf}s and
 * {@code FileRegion}s.
 */
final class FrameParts implements RecordsWriter, RecordsOutput {
    private final ByteBuf frame;
    private final List<Object> parts = new ArrayList<>();
    private int cut;
    private long bytes;

    /** Takes ownership of {@code frame}. */
    FrameParts(ByteBuf frame) {
        this.frame = frame;
        this.cut = frame.writerIndex();
    }

    @Override
    public void write(ByteBuf buf, Records records) {
        if (buf != frame) {
            throw new IllegalStateException("records written to a buffer other than the frame being cut");
        }
        if (records.sizeInBytes() == 0) {
            return;
        }
        cutFrame();
        records.writeTo(this);
    }

    @Override
    public void write(ByteBuf chunk) {
        if (chunk.isReadable()) {
            add(chunk.retainedDuplicate(), chunk.readableBytes());
        }
    }

    @Override
    public void write(ByteBuffer chunk) {
        if (chunk.hasRemaining()) {
            add(Unpooled.wrappedBuffer(chunk.duplicate()), chunk.remaining());
        }
    }

    @Override
    public void write(FileChannel channel, long position, int count) {
        if (count > 0) {
            add(new SharedFileRegion(channel, position, count), count);
        }
    }

    /** The parts, the frame's tail included; the frame's own reference is given up. */
    List<Object> finish() {
        cutFrame();
        frame.release();
        return parts;
    }

    /** Bytes in every part so far plus the frame not yet cut. */
    long bytes() {
        return bytes + frame.writerIndex() - cut;
    }

    /** Releases everything: on a failed encoding. */
    void discard() {
        parts.forEach(ReferenceCountUtil::safeRelease);
        parts.clear();
        if (frame.refCnt() > 0) {
            frame.release();
        }
    }

    private void cutFrame() {
        int end = frame.writerIndex();
        if (end > cut) {
            add(frame.retainedSlice(cut, end - cut), end - cut);
            cut = end;
        }
    }

    private void add(Object part, long size) {
        parts.add(part);
        bytes += size;
    }
}
