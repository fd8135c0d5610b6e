package io.kaas.engine.segments.internal;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.RecordBatches;
import io.kaas.api.storage.TimestampOffset;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * The timestamps of the records of one v2 batch, as Kafka's {@code FileRecords.searchForTimestamp} and
 * {@code RecordBatch.offsetOfMaxTimestamp} see them: a log-append-time batch gives every record the
 * batch's time; otherwise each record's own time (base timestamp + delta), decompressing the records
 * section of a compressed batch as a stream (only the varint heads are parsed, keys and values skipped),
 * so a lookup holds no more than one decompression buffer. Stateless and thread-safe.
 */
final class RecordTimestamps {
    private RecordTimestamps() {
    }

    /**
     * The first record at or above {@code minOffset} whose timestamp is {@code >= target}, or
     * {@code == target} if {@code equal}; null if none.
     *
     * @param batch the whole batch, position 0
     * @throws IOException if the records section cannot be decompressed or parsed
     */
    static TimestampOffset first(ByteBuffer batch, BatchHeader h, long minOffset, long target, boolean equal)
            throws IOException {
        if (h.isLogAppendTime()) {
            long first = Math.max(h.baseOffset(), minOffset);
            boolean matches = equal ? h.maxTimestamp() == target : h.maxTimestamp() >= target;
            return matches && first <= h.lastOffset() ? new TimestampOffset(h.maxTimestamp(), first, h.partitionLeaderEpoch())
                    : null;
        }
        try (Reader in = new Reader(records(batch, h))) {
            for (int i = 0; i < h.recordCount(); i++) {
                int length = (int) in.varlong();
                long start = in.count;
                in.skip(1); // attributes
                long timestamp = h.baseTimestamp() + in.varlong();
                long offset = h.baseOffset() + in.varlong();
                boolean matches = equal ? timestamp == target : timestamp >= target;
                if (offset >= minOffset && matches) {
                    return new TimestampOffset(timestamp, offset, h.partitionLeaderEpoch());
                }
                in.skip(length - (in.count - start));
            }
        }
        return null;
    }

    private static InputStream records(ByteBuffer batch, BatchHeader h) throws IOException {
        int length = batch.limit() - RecordBatches.HEADER_SIZE;
        byte[] raw = new byte[length];
        batch.get(RecordBatches.HEADER_SIZE, raw);
        InputStream bytes = new ByteArrayInputStream(raw);
        return h.compressionCodec() == Compression.NONE ? bytes
                : new BufferedInputStream(Compression.decompressing(h.compressionCodec(), bytes), 8192);
    }

    /** Reads zig-zag varlongs from a stream and counts the bytes consumed. */
    private static final class Reader implements AutoCloseable {
        private final InputStream in;
        long count;

        Reader(InputStream in) {
            this.in = in;
        }

        long varlong() throws IOException {
            long raw = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                int b = in.read();
                if (b < 0) {
                    throw new EOFException("records end inside a varint");
                }
                count++;
                raw |= (long) (b & 0x7f) << shift;
                if ((b & 0x80) == 0) {
                    return (raw >>> 1) ^ -(raw & 1);
                }
            }
            throw new IOException("varint longer than 10 bytes");
        }

        void skip(long n) throws IOException {
            if (n < 0) {
                throw new IOException("record shorter than its header fields");
            }
            in.skipNBytes(n);
            count += n;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
