package io.kaas.engine.segments.internal;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.storage.TimestampOffset;
import io.kaas.records.RecordCursor;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The timestamps of the records of one v2 batch, as Kafka's {@code FileRecords.searchForTimestamp} and
 * {@code RecordBatch.offsetOfMaxTimestamp} see them: a log-append-time batch gives every record the
 * batch's time; otherwise each record's own time, walked with a {@link RecordCursor} (a compressed
 * batch is decompressed as a stream). Stateless and thread-safe.
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
        try (RecordCursor records = RecordCursor.of(batch, h)) {
            while (records.next()) {
                boolean matches = equal ? records.timestamp() == target : records.timestamp() >= target;
                if (records.offset() >= minOffset && matches) {
                    return new TimestampOffset(records.timestamp(), records.offset(), h.partitionLeaderEpoch());
                }
            }
        }
        return null;
    }
}
