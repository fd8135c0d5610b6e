package io.kaas.api.record;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
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

    static final int BASE_OFFSET = 0;
    static final int LENGTH = 8;
    static final int PARTITION_LEADER_EPOCH = 12;
    static final int MAGIC = 16;
    static final int CRC = 17;
    static final int ATTRIBUTES = 21;
    static final int LAST_OFFSET_DELTA = 23;
    static final int BASE_TIMESTAMP = 27;
    static final int MAX_TIMESTAMP = 35;
    static final int PRODUCER_ID = 43;
    static final int PRODUCER_EPOCH = 51;
    static final int BASE_SEQUENCE = 53;
    static final int RECORD_COUNT = 57;

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

    /** Parses the header of the batch at {@code pos} without validating its CRC. */
    public static BatchHeader header(ByteBuffer buf, int pos, long filePosition) {
        ByteBuffer b = buf.duplicate().order(ByteOrder.BIG_ENDIAN);
        return new BatchHeader(filePosition, b.getInt(pos + LENGTH) + LOG_OVERHEAD, b.getLong(pos + BASE_OFFSET),
                b.getInt(pos + LAST_OFFSET_DELTA), b.getInt(pos + PARTITION_LEADER_EPOCH),
                b.getShort(pos + ATTRIBUTES), b.getLong(pos + BASE_TIMESTAMP), b.getLong(pos + MAX_TIMESTAMP),
                b.getLong(pos + PRODUCER_ID), b.getShort(pos + PRODUCER_EPOCH), b.getInt(pos + BASE_SEQUENCE),
                b.getInt(pos + RECORD_COUNT));
    }

    /**
     * Validates every batch in {@code buf} between its position and limit: sizes, magic 2 and CRC32C.
     *
     * @return the headers, positions relative to the buffer's position
     * @throws CorruptBatchException on the first malformed batch; nothing is modified
     */
    public static List<BatchHeader> validate(ByteBuffer buf) {
        List<BatchHeader> headers = new ArrayList<>();
        int start = buf.position();
        int pos = start;
        while (pos < buf.limit()) {
            headers.add(validateOne(buf, pos, pos - start));
            pos += headers.get(headers.size() - 1).sizeInBytes();
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
        b.putShort(pos + ATTRIBUTES, (short) (attributes | 0x08));
        b.putLong(pos + MAX_TIMESTAMP, timestamp);
        int size = announcedSize(b, pos);
        b.putInt(pos + CRC, (int) crc(b, pos, size));
    }
}
