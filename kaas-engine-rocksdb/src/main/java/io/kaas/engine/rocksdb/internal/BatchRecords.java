package io.kaas.engine.rocksdb.internal;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.RecordBatches;
import io.kaas.api.storage.TimestampOffset;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * Timestamp answers from one stored batch. Records of an uncompressed CreateTime batch are walked
 * (varint format) for exact offsets; a compressed or log-append-time batch answers with its header
 * alone (max timestamp, first readable offset), as its records are opaque or share one time.
 */
final class BatchRecords {
    private BatchRecords() {
    }

    private static boolean opaque(BatchHeader h) {
        return h.compressionCodec() != 0 || h.isLogAppendTime();
    }

    /** The first record at or above {@code minOffset} whose timestamp is at least {@code target}. */
    static Optional<TimestampOffset> firstAtOrAfter(byte[] batch, long target, long minOffset) {
        BatchHeader h = RecordBatches.header(ByteBuffer.wrap(batch), 0, 0);
        if (h.maxTimestamp() < target || h.lastOffset() < minOffset) {
            return Optional.empty();
        }
        if (opaque(h)) {
            return Optional.of(new TimestampOffset(h.maxTimestamp(), Math.max(h.baseOffset(), minOffset),
                    h.partitionLeaderEpoch()));
        }
        Cursor c = new Cursor(batch, h);
        while (c.next()) {
            if (c.offset >= minOffset && c.timestamp >= target) {
                return Optional.of(new TimestampOffset(c.timestamp, c.offset, h.partitionLeaderEpoch()));
            }
        }
        return Optional.empty();
    }

    /** The first record at or above {@code minOffset} with the batch's largest timestamp, or empty. */
    static Optional<TimestampOffset> max(byte[] batch, long minOffset) {
        BatchHeader h = RecordBatches.header(ByteBuffer.wrap(batch), 0, 0);
        if (h.lastOffset() < minOffset) {
            return Optional.empty();
        }
        if (opaque(h)) {
            return Optional.of(new TimestampOffset(h.maxTimestamp(), Math.max(h.baseOffset(), minOffset),
                    h.partitionLeaderEpoch()));
        }
        TimestampOffset best = null;
        Cursor c = new Cursor(batch, h);
        while (c.next()) {
            if (c.offset >= minOffset && (best == null || c.timestamp > best.timestamp())) {
                best = new TimestampOffset(c.timestamp, c.offset, h.partitionLeaderEpoch());
            }
        }
        return Optional.ofNullable(best);
    }

    /** Walks the records of an uncompressed batch: length, attributes, timestamp delta, offset delta. */
    private static final class Cursor {
        private final ByteBuffer buf;
        private final BatchHeader header;
        private int remaining;
        private int pos = RecordBatches.HEADER_SIZE;
        long offset;
        long timestamp;

        Cursor(byte[] batch, BatchHeader header) {
            this.buf = ByteBuffer.wrap(batch);
            this.header = header;
            this.remaining = header.recordCount();
        }

        boolean next() {
            if (remaining-- <= 0 || pos >= buf.limit()) {
                return false;
            }
            long length = readVarlong();
            int end = pos + (int) length;
            pos++; // attributes
            timestamp = header.baseTimestamp() + readVarlong();
            offset = header.baseOffset() + readVarlong();
            pos = end;
            return true;
        }

        private long readVarlong() {
            long raw = 0;
            int shift = 0;
            byte b;
            do {
                b = buf.get(pos++);
                raw |= (long) (b & 0x7F) << shift;
                shift += 7;
            } while ((b & 0x80) != 0 && shift < 70);
            return (raw >>> 1) ^ -(raw & 1);
        }
    }
}
