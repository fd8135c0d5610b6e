package io.kaas.records;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.RecordBatches;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * A walk over the records of one v2 batch: for each record its offset and timestamp (base + deltas),
 * parsed from the varint heads only, keys, values and headers skipped. A compressed batch is
 * decompressed as a stream, so a walk holds no more than one decompression buffer. Log-append time is
 * not applied: {@link #timestamp()} is the record's own (create) time. Not thread-safe; close it.
 */
public final class RecordCursor implements AutoCloseable {
    private final InputStream in;
    private final BatchHeader header;
    private int remaining;
    private long count;
    private long offset;
    private long timestamp;

    private RecordCursor(InputStream records, BatchHeader header) {
        this.in = records;
        this.header = header;
        this.remaining = header.recordCount();
    }

    /** A cursor over the batch in {@code batch} from its position to its limit (exactly one batch). */
    public static RecordCursor of(ByteBuffer batch, BatchHeader header) throws IOException {
        int length = batch.remaining() - RecordBatches.HEADER_SIZE;
        if (length < 0) {
            throw new IOException("batch of " + batch.remaining() + " bytes is shorter than its header");
        }
        if (batch.hasArray()) {
            return of(batch.array(), batch.arrayOffset() + batch.position() + RecordBatches.HEADER_SIZE, length, header);
        }
        byte[] raw = new byte[length];
        batch.get(batch.position() + RecordBatches.HEADER_SIZE, raw);
        return of(raw, 0, length, header);
    }

    /** A cursor over the whole batch in {@code batch}. */
    public static RecordCursor of(byte[] batch, BatchHeader header) throws IOException {
        return of(batch, RecordBatches.HEADER_SIZE, batch.length - RecordBatches.HEADER_SIZE, header);
    }

    private static RecordCursor of(byte[] bytes, int from, int length, BatchHeader header) throws IOException {
        InputStream raw = new ByteArrayInputStream(bytes, from, length);
        InputStream records = header.compressionCodec() == CompressionCodecs.NONE ? raw
                : new BufferedInputStream(CompressionCodecs.decompressing(header.compressionCodec(), raw), 8192);
        return new RecordCursor(records, header);
    }

    /**
     * Moves to the next record.
     *
     * @return false after the last record the header counts
     * @throws IOException if the records section ends early or is malformed
     */
    public boolean next() throws IOException {
        if (remaining <= 0) {
            return false;
        }
        remaining--;
        long length = varlong();
        long start = count;
        skip(1); // attributes
        timestamp = header.baseTimestamp() + varlong();
        offset = header.baseOffset() + varlong();
        skip(length - (count - start));
        return true;
    }

    /** The current record's offset. */
    public long offset() {
        return offset;
    }

    /** The current record's create time (base timestamp + its delta). */
    public long timestamp() {
        return timestamp;
    }

    private void skip(long n) throws IOException {
        if (n < 0) {
            throw new IOException("record shorter than its header fields");
        }
        in.skipNBytes(n);
        count += n;
    }

    private long varlong() throws IOException {
        long raw = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("records end inside a varint");
            }
            count++;
            raw |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return (raw >>> 1) ^ -(raw & 1);
            }
        }
        throw new IOException("varint longer than 10 bytes");
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
