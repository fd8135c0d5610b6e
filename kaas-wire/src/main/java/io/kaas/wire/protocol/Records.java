package io.kaas.wire.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * The value of a {@code records} field: record batches the codec passes through without looking inside.
 * Decoding yields a {@link BufferRecords} (a slice of the frame); a broker answering a Fetch sets its own
 * implementation whose bytes live in files and buffers. Encoding hands the bytes over through
 * {@link #writeTo}: copied into the frame ({@link ResponseWriter#write}), or kept as parts of their own —
 * file regions sent with zero copy ({@link ResponseWriter#writeParts}).
 */
public interface Records {

    /** No records: a zero-length field, not a null one. */
    Records EMPTY = new BufferRecords(Unpooled.EMPTY_BUFFER);

    /** The number of bytes {@link #writeTo} hands over; the field's length prefix. */
    int sizeInBytes();

    /**
     * Hands this value's bytes to {@code out} in order, as buffers and file regions summing to
     * {@link #sizeInBytes()}. Moves no reader index or buffer position; may be called more than once.
     */
    void writeTo(RecordsOutput out);

    /** The readable bytes of {@code bytes} (not retained, not copied). */
    static BufferRecords of(ByteBuf bytes) {
        return new BufferRecords(bytes);
    }
}
