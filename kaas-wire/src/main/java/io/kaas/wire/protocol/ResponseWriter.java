package io.kaas.wire.protocol;

import io.kaas.wire.message.ResponseHeaderData;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.List;

/** Encodes a complete response frame: 4-byte size prefix, response header, body. */
public final class ResponseWriter {

    private ResponseWriter() {
    }

    /**
     * Allocates and fills one frame, record bytes copied in. The caller owns the returned buffer.
     *
     * @param headerVersion as given by {@code ApiMessageType#responseHeaderVersion(short)}
     */
    public static ByteBuf write(ByteBufAllocator alloc, int correlationId, short headerVersion, ApiMessage body,
                                short version) {
        ResponseHeaderData header = new ResponseHeaderData().setCorrelationId(correlationId);
        int size = header.size(headerVersion) + body.size(version);
        ByteBuf buf = alloc.buffer(4 + size);
        try {
            buf.writeInt(size);
            header.write(buf, headerVersion);
            body.write(buf, RecordsWriter.COPY, version);
            check(size, buf.readableBytes() - 4, body, version);
            return buf;
        } catch (RuntimeException e) {
            buf.release();
            throw e;
        }
    }

    /**
     * Encodes one frame as an ordered list of parts for a channel to write: {@code ByteBuf}s holding the size
     * prefix, the header and the body around the records (slices of one buffer), and the records' own chunks —
     * file regions ({@link SharedFileRegion}, zero-copy) and buffers, neither copied. The first part starts with
     * the size prefix. A body without record bytes, or a channel that cannot send file regions
     * ({@code fileRegions} false: a transport that must see the bytes, such as TLS), gets the one buffer
     * {@link #write} gives. Ownership of every part passes to the caller.
     */
    public static List<Object> writeParts(ByteBufAllocator alloc, int correlationId, short headerVersion,
                                          ApiMessage body, short version, boolean fileRegions) {
        int recordsBytes = fileRegions ? body.recordsSize(version) : 0;
        if (recordsBytes == 0) {
            return List.of(write(alloc, correlationId, headerVersion, body, version));
        }
        ResponseHeaderData header = new ResponseHeaderData().setCorrelationId(correlationId);
        int size = header.size(headerVersion) + body.size(version);
        ByteBuf frame = alloc.buffer(4 + size - recordsBytes);
        FrameParts parts = new FrameParts(frame);
        try {
            frame.writeInt(size);
            header.write(frame, headerVersion);
            body.write(frame, parts, version);
            check(size, parts.bytes() - 4, body, version);
            return parts.finish();
        } catch (RuntimeException e) {
            parts.discard();
            throw e;
        }
    }

    private static void check(int size, long written, ApiMessage body, short version) {
        if (written != size) {
            throw new IllegalStateException("size " + size + " disagrees with " + written
                + " bytes written for " + body.getClass().getSimpleName() + " v" + version);
        }
    }
}
