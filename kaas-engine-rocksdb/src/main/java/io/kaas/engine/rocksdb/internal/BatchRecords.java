package io.kaas.engine.rocksdb.internal;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.RecordBatches;
import io.kaas.api.storage.TimestampOffset;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * Timestamp answers from one stored batch, exact as Kafka's ({@code FileRecords.searchForTimestamp},
 * {@code RecordBatch.offsetOfMaxTimestamp}): the records are walked (varint heads only, keys and values
 * skipped), decompressed as a stream first if the batch is compressed; in a log-append-time batch every
 * record carries the batch's time. A compressed batch whose records cannot be decoded (its payload is not
 * what its codec bits say) is answered at batch level, with its max timestamp and first readable offset.
 */
final class BatchRecords {
    private BatchRecords() {
    }

    /** The first record at or above {@code minOffset} whose timestamp is at least {@code target}. */
    static Optional<TimestampOffset> firstAtOrAfter(byte[] batch, long target, long minOffset) {
        BatchHeader h = RecordBatches.header(ByteBuffer.wrap(batch), 0, 0);
        if (h.maxTimestamp() < target || h.lastOffset() < minOffset) {
            return Optional.empty();
        }
        return find(batch, h, minOffset, target, false);
    }

    /** The first record at or above {@code minOffset} with the batch's largest timestamp, or empty. */
    static Optional<TimestampOffset> max(byte[] batch, long minOffset) {
        BatchHeader h = RecordBatches.header(ByteBuffer.wrap(batch), 0, 0);
        if (h.lastOffset() < minOffset) {
            return Optional.empty();
        }
        Optional<TimestampOffset> exact = find(batch, h, minOffset, h.maxTimestamp(), true);
        return exact.isPresent() ? exact : largestReadable(batch, h, minOffset);
    }

    /** When the records with the batch's max timestamp lie below {@code minOffset}: the largest of the rest. */
    private static Optional<TimestampOffset> largestReadable(byte[] batch, BatchHeader h, long minOffset) {
        TimestampOffset best = null;
        try (Cursor c = new Cursor(batch, h)) {
            while (c.next()) {
                if (c.offset >= minOffset && (best == null || c.timestamp > best.timestamp())) {
                    best = new TimestampOffset(c.timestamp, c.offset, h.partitionLeaderEpoch());
                }
            }
        } catch (IOException | RuntimeException e) {
            return Optional.of(batchLevel(h, minOffset));
        }
        return Optional.ofNullable(best);
    }

    private static Optional<TimestampOffset> find(byte[] batch, BatchHeader h, long minOffset, long target, boolean equal) {
        if (h.isLogAppendTime()) {
            return Optional.of(batchLevel(h, minOffset));
        }
        try (Cursor c = new Cursor(batch, h)) {
            while (c.next()) {
                boolean matches = equal ? c.timestamp == target : c.timestamp >= target;
                if (c.offset >= minOffset && matches) {
                    return Optional.of(new TimestampOffset(c.timestamp, c.offset, h.partitionLeaderEpoch()));
                }
            }
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            if (h.compressionCodec() == Compression.NONE) {
                throw new UncheckedIOException(new IOException("stored batch at offset " + h.baseOffset()
                        + " is malformed", e));
            }
            return Optional.of(batchLevel(h, minOffset));
        }
    }

    private static TimestampOffset batchLevel(BatchHeader h, long minOffset) {
        return new TimestampOffset(h.maxTimestamp(), Math.max(h.baseOffset(), minOffset), h.partitionLeaderEpoch());
    }

    /** Walks the records of a batch: length, attributes, timestamp delta, offset delta; skips the rest. */
    private static final class Cursor implements AutoCloseable {
        private final InputStream in;
        private final BatchHeader header;
        private int remaining;
        private long count;
        long offset;
        long timestamp;

        Cursor(byte[] batch, BatchHeader header) throws IOException {
            InputStream raw = new ByteArrayInputStream(batch, RecordBatches.HEADER_SIZE, batch.length - RecordBatches.HEADER_SIZE);
            this.in = header.compressionCodec() == Compression.NONE ? raw
                    : new BufferedInputStream(Compression.decompressing(header.compressionCodec(), raw), 8192);
            this.header = header;
            this.remaining = header.recordCount();
        }

        boolean next() throws IOException {
            if (remaining-- <= 0) {
                return false;
            }
            long length = varlong();
            long start = count;
            skip(1); // attributes
            timestamp = header.baseTimestamp() + varlong();
            offset = header.baseOffset() + varlong();
            skip(length - (count - start));
            return true;
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
}
