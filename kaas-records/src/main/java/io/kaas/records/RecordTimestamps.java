package io.kaas.records;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.storage.TimestampOffset;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Timestamp answers from the records of one v2 batch, as Kafka's {@code FileRecords.searchForTimestamp}
 * and {@code RecordBatch.offsetOfMaxTimestamp} give them: a log-append-time batch gives every record the
 * batch's time; otherwise each record's own time, walked with a {@link RecordCursor} (a compressed batch
 * is decompressed as a stream). Stateless and thread-safe.
 */
public final class RecordTimestamps {
    private RecordTimestamps() {
    }

    /**
     * The first record at or above {@code minOffset} whose timestamp is {@code >= target}, or
     * {@code == target} if {@code equal}; null if none. A compressed batch whose records cannot be
     * decoded (an unknown codec, a payload that is not what its codec bits say) is answered at batch
     * level ({@link #batchLevel}) rather than failing the lookup.
     *
     * @param batch the whole batch, from its position to its limit
     * @throws IOException if the records of an uncompressed batch are malformed
     */
    public static TimestampOffset first(ByteBuffer batch, BatchHeader h, long minOffset, long target, boolean equal)
            throws IOException {
        if (h.isLogAppendTime()) {
            long first = Math.max(h.baseOffset(), minOffset);
            boolean matches = equal ? h.maxTimestamp() == target : h.maxTimestamp() >= target;
            return matches && first <= h.lastOffset() ? new TimestampOffset(h.maxTimestamp(), first, h.partitionLeaderEpoch())
                    : null;
        }
        try (RecordCursor records = RecordCursor.of(batch, h)) {
            while (records.next()) {
                boolean matches = equal ? records.timestamp() == target : records.timestamp() >= target;
                if (records.offset() >= minOffset && matches) {
                    return new TimestampOffset(records.timestamp(), records.offset(), h.partitionLeaderEpoch());
                }
            }
            return null;
        } catch (IOException | RuntimeException e) {
            if (h.compressionCodec() == CompressionCodecs.NONE) {
                throw e instanceof IOException io ? io : new IOException("batch at offset " + h.baseOffset() + " is malformed", e);
            }
            return batchLevel(h, minOffset);
        }
    }

    /** The answer for a batch whose records cannot be walked: its max timestamp at its first offset at or above {@code minOffset}. */
    public static TimestampOffset batchLevel(BatchHeader h, long minOffset) {
        return new TimestampOffset(h.maxTimestamp(), Math.max(h.baseOffset(), minOffset), h.partitionLeaderEpoch());
    }
}
