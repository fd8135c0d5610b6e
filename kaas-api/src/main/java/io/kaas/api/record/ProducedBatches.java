package io.kaas.api.record;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * Record batches a producer sent, validated once by the broker (sizes, magic 2, CRC32C) and handed to
 * {@link io.kaas.api.storage.PartitionLog#append} with their parsed headers, so an engine never parses
 * them again. The only way to make one is {@link #validate}: the headers always describe the bytes.
 *
 * <p>{@link #buffer()} holds the batches from position 0 to its limit; each header's
 * {@link BatchHeader#position() position} is the batch's first byte in it. An engine may rewrite the
 * base offset, the partition leader epoch and the log-append time in place ({@link RecordBatches}
 * setters), nothing else. Not thread-safe: one append owns it.
 */
public final class ProducedBatches {
    private final ByteBuffer buffer;
    private final List<BatchHeader> headers;

    private ProducedBatches(ByteBuffer buffer, List<BatchHeader> headers) {
        this.buffer = buffer;
        this.headers = headers;
    }

    /**
     * Validates every batch between {@code buf}'s position and limit ({@link RecordBatches#validate}).
     * The result shares {@code buf}'s content (an engine's in-place rewrites show in it) but not its
     * position or limit.
     *
     * @throws CorruptBatchException on the first malformed batch, or if there is none
     */
    public static ProducedBatches validate(ByteBuffer buf) {
        ByteBuffer view = buf.slice();
        return new ProducedBatches(view, List.copyOf(RecordBatches.validate(view)));
    }

    /** The batches, position 0 to limit; shared, not copied. */
    public ByteBuffer buffer() {
        return buffer;
    }

    /** The header of each batch, in order; at least one. */
    public List<BatchHeader> headers() {
        return headers;
    }

    /** A view of one batch (position 0, limit its size) sharing the content of {@link #buffer()}. */
    public ByteBuffer batch(BatchHeader header) {
        int pos = (int) header.position();
        return buffer.duplicate().limit(pos + header.sizeInBytes()).position(pos).slice();
    }

    /** The size of all the batches together. */
    public int sizeInBytes() {
        return buffer.limit();
    }
}
