package io.kaas.wire.protocol;

import io.netty.buffer.ByteBuf;
import java.util.Objects;

/**
 * Records held in a buffer, from its reader index to its writer index: what decoding a records field yields
 * (a slice of the request frame, valid as long as the frame is). Two values are equal when their bytes are.
 */
public record BufferRecords(ByteBuf buffer) implements Records {

    public BufferRecords {
        Objects.requireNonNull(buffer, "buffer");
    }

    @Override
    public int sizeInBytes() {
        return buffer.readableBytes();
    }

    @Override
    public void writeTo(RecordsOutput out) {
        out.write(buffer);
    }

    @Override
    public String toString() {
        return "BufferRecords[" + buffer.readableBytes() + " bytes]";
    }
}
