package io.kaas.api.record;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.zip.CRC32C;

/**
 * Reads and patches v2 record batches in a {@link ByteBuffer} (absolute access only: the buffer's
 * position and limit are never changed). Stateless and thread-safe.
 */
public final class RecordBatches {
    public static final byte MAGIC_V2 = 2;
    /** Offset (8) + length (4): the part of a batch not counted by its length field. */
    public static final int LOG_OVERHEAD = 12;
    /** Size of the fixed v2 batch header, up to and including the record count. */
    public static final int HEADER_SIZE = 61;


    // The v2 header layout: byte offset of each field from the start of the batch (Kafka's DefaultRecordBatch).
    /** int64 base offset. Not covered by the CRC. */
    public static final int BASE_OFFSET = 0;
    /** int32 length of the batch after this field (so the whole batch is length + {@link #LOG_OVERHEAD}). */
    public static final int LENGTH = 8;
    /** int32 partition leader epoch. Not covered by the CRC. */
    public static final int PARTITION_LEADER_EPOCH = 12;
    /** int8 magic, 2. */
    public static final int MAGIC = 16;
    /** uint32 CRC32C of everything from {@link #ATTRIBUTES} to the end of the batch. */
    public static final int CRC = 17;
    /** int16 attributes: compression (bits 0-2), timestamp type (3), transactional (4), control (5). */
    public static final int ATTRIBUTES = 21;
    /** int32 offset of the last record relative to the base offset. */
    public static final int LAST_OFFSET_DELTA = 23;
    /** int64 timestamp of the first record. */
    public static final int BASE_TIMESTAMP = 27;
    /** int64 largest timestamp in the batch (the log-append time for LogAppendTime batches). */
    public static final int MAX_TIMESTAMP = 35;
    /** int64 producer id, -1 if none. */
    public static final int PRODUCER_ID = 43;
    /** int16 producer epoch, -1 if none. */
    public static final int PRODUCER_EPOCH = 51;
    /** int32 sequence of the first record, -1 if none. */
    public static final int BASE_SEQUENCE = 53;
    /** int32 number of records; the records follow at {@link #HEADER_SIZE}. */
    public static final int RECORDS_COUNT = 57;

    /** Attribute bits 0-2: the compression codec. */
    public static final int COMPRESSION_CODEC_MASK = 0x07;
    /** Attribute bit 3: the timestamps are the broker's log-append time. */
    public static final int TIMESTAMP_TYPE_FLAG = 0x08;
    /** Attribute bit 4: the batch is part of a transaction. */
    public static final int TRANSACTIONAL_FLAG = 0x10;
    /** Attribute bit 5: the batch holds a control record (a transaction marker). */
    public static final int CONTROL_FLAG = 0x20;

    private RecordBatches() {
    }

    /**
     * Size of the batch starting at {@code pos} as announced by its length field, or -1 if fewer
     * than {@link #LOG_OVERHEAD} bytes remain.
     */
    public static int announcedSize(ByteBuffer buf, int pos) {
        if (buf.limit() - pos < LOG_OVERHEAD) {
            return -1;
        }
        return buf.order(ByteOrder.BIG_ENDIAN).getInt(pos + LENGTH) + LOG_OVERHEAD;
    }

    /**
     * The headers of the concatenated batches in {@code buf} between its position and limit, parsed one
     * at a time without validating magic or CRC (for bytes an engine stored itself). Each header's
     * position is relative to the buffer's position. The iterator throws {@link CorruptBatchException}
     * when it reaches a batch whose length field is below {@link #HEADER_SIZE} or passes the limit.
     */
    public static Iterable<BatchHeader> headers(ByteBuffer buf) {
        ByteBuffer view = buf.duplicate();
        return () -> new HeaderIterator(view);
    }

    /** Parses the header of the batch at {@code pos} without validating its CRC. */
    public static BatchHeader header(ByteBuffer buf, int pos, long filePosition) {
        ByteBuffer b = buf.duplicate().order(ByteOrder.BIG_ENDIAN);
        return new BatchHeader(filePosition, b.getInt(pos + LENGTH) + LOG_OVERHEAD, b.getLong(pos + BASE_OFFSET),
                b.getInt(pos + LAST_OFFSET_DELTA), b.getInt(pos + PARTITION_LEADER_EPOCH),
                b.getShort(pos + ATTRIBUTES), b.getLong(pos + BASE_TIMESTAMP), b.getLong(pos + MAX_TIMESTAMP),
                b.getLong(pos + PRODUCER_ID), b.getShort(pos + PRODUCER_EPOCH), b.getInt(pos + BASE_SEQUENCE),
                b.getInt(pos + RECORDS_COUNT));
    }

    /**
     * Validates every batch in {@code buf} between its position and limit: sizes, magic 2 and CRC32C, and the
     * key and value of a control batch ({@link ControlRecords#marker}).
     *
     * @return the headers, positions relative to the buffer's position
     * @throws CorruptBatchException on the first malformed batch; nothing is modified
     */
    public static List<BatchHeader> validate(ByteBuffer buf) {
        List<BatchHeader> headers = new ArrayList<>();
        int start = buf.position();
        for (int pos = start; pos < buf.limit(); pos += headers.get(headers.size() - 1).sizeInBytes()) {
            headers.add(validateOne(buf, pos, pos - start));
        }
        if (headers.isEmpty()) {
            throw new CorruptBatchException("no record batch in the request");
        }
        return headers;
    }

    /** Validates the single batch at {@code pos}; see {@link #validate(ByteBuffer)}. */
    public static BatchHeader validateOne(ByteBuffer buf, int pos, long filePosition) {
        int remaining = buf.limit() - pos;
        if (remaining < HEADER_SIZE) {
            throw new CorruptBatchException("record batch truncated: " + remaining + " bytes, header needs " + HEADER_SIZE);
        }
        int size = announcedSize(buf, pos);
        if (size < HEADER_SIZE || size > remaining) {
            throw new CorruptBatchException("record batch length " + size + " does not fit the " + remaining + " bytes left");
        }
        byte magic = buf.get(pos + MAGIC);
        if (magic != MAGIC_V2) {
            throw new CorruptBatchException("record batch magic " + magic + " is not supported, only magic 2");
        }
        BatchHeader header = header(buf, pos, filePosition);
        if (header.lastOffsetDelta() < 0 || header.recordCount() < 0) {
            throw new CorruptBatchException("record batch has a negative record count or offset delta");
        }
        long stored = Integer.toUnsignedLong(buf.getInt(pos + CRC));
        long computed = crc(buf, pos, size);
        if (stored != computed) {
            throw new CorruptBatchException("record batch CRC32C mismatch: stored " + stored + ", computed " + computed);
        }
        if (header.isControl()) {
            ControlRecords.marker(buf, pos, header); // a well-formed marker: ABORT or COMMIT, and a coordinator epoch
        }
        return header;
    }

    /** CRC32C of the batch at {@code pos}, computed as Kafka does: from the attributes to the end. */
    public static long crc(ByteBuffer buf, int pos, int size) {
        CRC32C crc = new CRC32C();
        ByteBuffer slice = buf.duplicate();
        slice.limit(pos + size).position(pos + ATTRIBUTES);
        crc.update(slice);
        return crc.getValue();
    }

    /** Writes {@code baseOffset} into the batch at {@code pos}. The CRC does not cover it. */
    public static void setBaseOffset(ByteBuffer buf, int pos, long baseOffset) {
        buf.order(ByteOrder.BIG_ENDIAN).putLong(pos + BASE_OFFSET, baseOffset);
    }

    /** Writes the partition leader epoch into the batch at {@code pos}. The CRC does not cover it. */
    public static void setPartitionLeaderEpoch(ByteBuffer buf, int pos, int epoch) {
        buf.order(ByteOrder.BIG_ENDIAN).putInt(pos + PARTITION_LEADER_EPOCH, epoch);
    }

    /**
     * Stamps log-append time on the batch at {@code pos}: sets the timestamp-type bit and the max
     * timestamp, then recomputes the CRC, as Kafka does for {@code message.timestamp.type=LogAppendTime}.
     */
    public static void setLogAppendTime(ByteBuffer buf, int pos, long timestamp) {
        ByteBuffer b = buf.order(ByteOrder.BIG_ENDIAN);
        short attributes = b.getShort(pos + ATTRIBUTES);
        b.putShort(pos + ATTRIBUTES, (short) (attributes | TIMESTAMP_TYPE_FLAG));
        b.putLong(pos + MAX_TIMESTAMP, timestamp);
        int size = announcedSize(b, pos);
        b.putInt(pos + CRC, (int) crc(b, pos, size));
    }

    private static final class HeaderIterator implements Iterator<BatchHeader> {
        private final ByteBuffer buf;
        private final int start;
        private int pos;

        HeaderIterator(ByteBuffer buf) {
            this.buf = buf;
            this.start = buf.position();
            this.pos = start;
        }

        @Override
        public boolean hasNext() {
            return pos < buf.limit();
        }

        @Override
        public BatchHeader next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            int size = announcedSize(buf, pos);
            if (size < HEADER_SIZE || size > buf.limit() - pos) {
                throw new CorruptBatchException("record batch at byte " + (pos - start) + " announces " + size
                        + " bytes, " + (buf.limit() - pos) + " left");
            }
            BatchHeader h = header(buf, pos, pos - start);
            pos += size;
            return h;
        }
    }
}
