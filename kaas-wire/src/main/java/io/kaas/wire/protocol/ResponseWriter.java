package io.kaas.wire.protocol;

import io.kaas.wire.message.ResponseHeaderData;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/** Encodes a complete response frame: 4-byte size prefix, response header, body. */
public final class ResponseWriter {

    private ResponseWriter() {
    }

    /**
     * Allocates and fills one frame. The caller owns the returned buffer.
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
            body.write(buf, version);
            if (buf.readableBytes() != 4 + size) {
                throw new IllegalStateException("size " + size + " disagrees with " + (buf.readableBytes() - 4)
                    + " bytes written for " + body.getClass().getSimpleName() + " v" + version);
            }
            return buf;
        } catch (RuntimeException e) {
            buf.release();
            throw e;
        }
    }
}
