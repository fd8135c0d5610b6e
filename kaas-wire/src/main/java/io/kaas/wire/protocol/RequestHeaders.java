package io.kaas.wire.protocol;

import io.netty.buffer.ByteBuf;

/**
 * Peeks at the fixed prefix every request header shares (api key, api version), without moving the reader
 * index, so the broker can pick the header version before decoding the header.
 */
public final class RequestHeaders {

    private RequestHeaders() {
    }

    /** The int16 API key at the reader index of a request frame (length prefix already removed). */
    public static short peekApiKey(ByteBuf frame) {
        return frame.getShort(frame.readerIndex());
    }

    /** The int16 API version following the API key. */
    public static short peekApiVersion(ByteBuf frame) {
        return frame.getShort(frame.readerIndex() + 2);
    }
}
