package io.kaas.broker.request;

import io.netty.buffer.ByteBufAllocator;
import java.util.List;

/**
 * A response body that is written as several parts rather than one buffer — the door for zero-copy
 * fetch. A handler's response object that implements this interface is encoded by
 * {@link #encodeParts} instead of {@code ResponseWriter}.
 *
 * <p>The parts are written in order on the connection's event loop: the first is a
 * {@link io.netty.buffer.ByteBuf} holding the 4-byte size prefix, the response header and the body
 * up to the first zero-copy section; the others are {@code ByteBuf}s or
 * {@link io.netty.channel.FileRegion}s whose byte counts the size prefix includes. Ownership of every
 * part passes to the network layer, which writes or releases it exactly once.
 */
public interface MultipartResponse {

    /**
     * Encodes this response. Called once, on the thread that completed the handler's future, never
     * on an event loop unless the handler completed it there.
     */
    List<Object> encodeParts(ByteBufAllocator alloc, int correlationId, short headerVersion, short version);

    /**
     * As {@link #encodeParts(ByteBufAllocator, int, short, short)}, told whether the connection can
     * send {@link io.netty.channel.FileRegion}s: false on a transport that must see the bytes (TLS), in
     * which case every part must be a {@code ByteBuf}. The network layer calls this one.
     */
    default List<Object> encodeParts(ByteBufAllocator alloc, int correlationId, short headerVersion, short version,
                                     boolean fileRegions) {
        return encodeParts(alloc, correlationId, headerVersion, version);
    }
}
