package io.kaas.api.record;

/**
 * The parsed header of one v2 record batch.
 *
 * @param position        byte position of the batch within the buffer or file it was read from
 * @param sizeInBytes     whole batch size, including the 12-byte offset and length prefix
 * @param baseOffset      offset of the first record
 * @param lastOffsetDelta offset of the last record relative to {@code baseOffset}
 * @param partitionLeaderEpoch the leader epoch stamped on the batch
 * @param attributes      compression (bits 0-2), timestamp type (bit 3), transactional (bit 4), control (bit 5)
 * @param baseTimestamp   timestamp of the first record
 * @param maxTimestamp    largest timestamp in the batch (or the log-append time)
 * @param producerId      producer id, -1 if none
 * @param producerEpoch   producer epoch, -1 if none
 * @param baseSequence    sequence of the first record, -1 if none
 * @param recordCount     number of records
 */
public record BatchHeader(long position, int sizeInBytes, long baseOffset, int lastOffsetDelta,
                          int partitionLeaderEpoch, short attributes, long baseTimestamp, long maxTimestamp,
                          long producerId, short producerEpoch, int baseSequence, int recordCount) {

    public long lastOffset() {
        return baseOffset + lastOffsetDelta;
    }

    public long nextOffset() {
        return lastOffset() + 1;
    }

    public int compressionCodec() {
        return attributes & RecordBatches.COMPRESSION_CODEC_MASK;
    }

    public boolean isLogAppendTime() {
        return (attributes & RecordBatches.TIMESTAMP_TYPE_FLAG) != 0;
    }

    /** Attribute bit 4: the batch belongs to a transaction of its producer. */
    public boolean isTransactional() {
        return (attributes & RecordBatches.TRANSACTIONAL_FLAG) != 0;
    }

    /** Attribute bit 5: the batch holds a control record (a COMMIT or ABORT marker), not data. */
    public boolean isControl() {
        return (attributes & RecordBatches.CONTROL_FLAG) != 0;
    }

    public boolean hasProducerId() {
        return producerId >= 0;
    }

    /** Sequence of the last record, wrapping at {@link Integer#MAX_VALUE} as Kafka does. */
    public int lastSequence() {
        if (baseSequence < 0) {
            return -1;
        }
        long last = (long) baseSequence + lastOffsetDelta;
        return (int) (last > Integer.MAX_VALUE ? last - Integer.MAX_VALUE - 1 : last);
    }
}
