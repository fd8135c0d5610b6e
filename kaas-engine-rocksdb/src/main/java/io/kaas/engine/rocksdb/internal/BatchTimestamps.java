package io.kaas.engine.rocksdb.internal;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.RecordBatches;
import io.kaas.api.storage.TimestampOffset;
import io.kaas.records.RecordCursor;
import io.kaas.records.RecordTimestamps;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * Timestamp answers from one stored batch, exact as Kafka's ({@code FileRecords.searchForTimestamp},
 * {@code RecordBatch.offsetOfMaxTimestamp}): the records are walked with a {@link RecordCursor} (decompressed as a
 * stream if the batch is compressed); in a log-append-time batch every
 * record carries the batch's time. A compressed batch whose records cannot be decoded (its payload is not
 * what its codec bits say) is answered at batch level, with its max timestamp and first readable offset.
 */
final class BatchTimestamps {
    private BatchTimestamps() {
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
        try (RecordCursor c = RecordCursor.of(batch, h)) {
            while (c.next()) {
                if (c.offset() >= minOffset && (best == null || c.timestamp() > best.timestamp())) {
                    best = new TimestampOffset(c.timestamp(), c.offset(), h.partitionLeaderEpoch());
                }
            }
        } catch (IOException | RuntimeException e) {
            return Optional.of(RecordTimestamps.batchLevel(h, minOffset));
        }
        return Optional.ofNullable(best);
    }

    private static Optional<TimestampOffset> find(byte[] batch, BatchHeader h, long minOffset, long target, boolean equal) {
        try {
            return Optional.ofNullable(RecordTimestamps.first(ByteBuffer.wrap(batch), h, minOffset, target, equal));
        } catch (IOException e) {
            throw new UncheckedIOException("stored batch at offset " + h.baseOffset() + " is malformed", e);
        }
    }
}
