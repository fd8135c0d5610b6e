package io.kaas.api.record;

import java.nio.ByteBuffer;

/**
 * The key of a control batch's record, as Kafka lays it out: version (int16, not negative) and type
 * (int16: {@link #ABORT} or {@link #COMMIT}). A control batch (attribute bit 5) is uncompressed and its
 * first record is the marker; Kafka reads that one only. Its value is version (int16, not negative) and the
 * coordinator epoch (int32).
 */
public final class ControlRecords {
    /** Control type of an ABORT transaction marker. */
    public static final short ABORT = 0;
    /** Control type of a COMMIT transaction marker. */
    public static final short COMMIT = 1;
    /** Bytes of a control key: version and type. */
    public static final int KEY_SIZE = 4;

    private ControlRecords() {
    }

    /** Bytes of a marker's value (Kafka's EndTransactionMarker v0): version and coordinator epoch. */
    public static final int VALUE_SIZE = 6;

    /**
     * A transaction marker as its control record says it.
     *
     * @param type             {@link #ABORT} or {@link #COMMIT}
     * @param coordinatorEpoch the epoch of the transaction coordinator that wrote it
     */
    public record Marker(short type, int coordinatorEpoch) {
        /** Whether it commits the transaction (else it aborts it). */
        public boolean commit() {
            return type == COMMIT;
        }
    }

    /**
     * The marker type of the control batch at {@code pos} in {@code buf}.
     *
     * @throws CorruptBatchException as {@link #marker}
     */
    public static short type(ByteBuffer buf, int pos, BatchHeader header) {
        return marker(buf, pos, header).type();
    }

    /**
     * The marker of the control batch at {@code pos} in {@code buf}: the type from its first record's key, the
     * coordinator epoch from its value (Kafka reads that record only).
     *
     * @throws CorruptBatchException if the batch is compressed, has no record, its first record is cut short,
     *         its key is shorter than {@value #KEY_SIZE} bytes, its version is negative or its type is neither
     *         ABORT nor COMMIT, or its value is shorter than {@value #VALUE_SIZE} bytes or has a negative version
     */
    public static Marker marker(ByteBuffer buf, int pos, BatchHeader header) {
        if (header.compressionCodec() != 0) {
            throw new CorruptBatchException("control batch must not be compressed");
        }
        if (header.recordCount() < 1) {
            throw new CorruptBatchException("control batch holds no control record");
        }
        int end = pos + header.sizeInBytes();
        int[] at = {pos + RecordBatches.HEADER_SIZE};
        varint(buf, at, end); // record length
        if (at[0] >= end) {
            throw new CorruptBatchException("control record truncated");
        }
        at[0]++; // attributes
        varint(buf, at, end); // timestamp delta (a varlong)
        varint(buf, at, end); // offset delta
        long keyLength = varint(buf, at, end);
        if (keyLength < KEY_SIZE || at[0] + keyLength > end) {
            throw new CorruptBatchException("Invalid value size found for end control record key: " + keyLength);
        }
        short version = buf.getShort(at[0]);
        short type = buf.getShort(at[0] + 2);
        if (version < 0) {
            throw new CorruptBatchException("control record key version " + version + " is negative");
        }
        if (type != ABORT && type != COMMIT) {
            throw new CorruptBatchException("control record type " + type + " is neither ABORT (0) nor COMMIT (1)");
        }
        at[0] += (int) keyLength;
        long valueLength = varint(buf, at, end);
        if (valueLength < VALUE_SIZE || at[0] + valueLength > end) {
            throw new CorruptBatchException("Invalid value size found for end transaction marker. Must have at least "
                    + VALUE_SIZE + " bytes, but found " + valueLength);
        }
        short valueVersion = buf.getShort(at[0]);
        if (valueVersion < 0) {
            throw new CorruptBatchException("Invalid version found for end transaction marker: " + valueVersion
                    + ". May indicate data corruption");
        }
        return new Marker(type, buf.getInt(at[0] + 2));
    }

    /** A zigzag varlong at {@code at[0]}, which it advances; at most ten bytes, within {@code end}. */
    private static long varint(ByteBuffer buf, int[] at, int end) {
        long raw = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            if (at[0] >= end) {
                throw new CorruptBatchException("control record truncated");
            }
            byte b = buf.get(at[0]++);
            raw |= (long) (b & 0x7f) << shift;
            if (b >= 0) {
                return (raw >>> 1) ^ -(raw & 1);
            }
        }
        throw new CorruptBatchException("control record has a varint longer than ten bytes");
    }
}
