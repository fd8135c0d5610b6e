package io.kaas.wire.netty;

import io.netty.handler.codec.CorruptedFrameException;

/** A frame whose size prefix is negative. */
public class CorruptFrameException extends CorruptedFrameException {

    private static final long serialVersionUID = 1L;

    public CorruptFrameException(String message) {
        super(message);
    }
}
