package io.kaas.wire.netty;

import io.netty.handler.codec.TooLongFrameException;

/** A frame whose declared size exceeds the configured cap ({@code socket.request.max.bytes}). */
public class FrameTooLargeException extends TooLongFrameException {

    private static final long serialVersionUID = 1L;

    private final int size;
    private final int maxFrameSize;

    public FrameTooLargeException(int size, int maxFrameSize) {
        super("frame of " + size + " bytes exceeds the maximum of " + maxFrameSize + " (socket.request.max.bytes)");
        this.size = size;
        this.maxFrameSize = maxFrameSize;
    }

    public int size() {
        return size;
    }

    public int maxFrameSize() {
        return maxFrameSize;
    }
}
