package io.kaas.api.storage;

import java.nio.ByteBuffer;

/** Batches in memory, from the buffer's position to its limit. The broker treats the buffer as read-only. */
public record BufferSlice(ByteBuffer buffer) implements LogSlice {
    @Override
    public int sizeInBytes() {
        return buffer.remaining();
    }
}
