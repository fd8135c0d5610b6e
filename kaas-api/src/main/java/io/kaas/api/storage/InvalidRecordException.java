package io.kaas.api.storage;

import java.util.List;
import java.util.Objects;

/**
 * A record the partition refuses (for example a keyless record on a compacted topic): INVALID_RECORD (87).
 * When the batch is refused because of some of its records, {@link #recordErrors()} names each of them (KIP-467:
 * Produce v8+ answers them as {@code record_errors}, so a client fails those records with their own message and
 * the others of the batch with a generic error); empty when the batch as a whole is at fault.
 */
public class InvalidRecordException extends StorageException {
    private final List<RecordError> recordErrors;

    /**
     * One refused record.
     *
     * @param batchIndex the record's index in the appended records, counting from 0 at the first record of the
     *                   first batch
     * @param message    why it is refused, as Kafka says it (may be null)
     */
    public record RecordError(int batchIndex, String message) {
        public RecordError {
            if (batchIndex < 0) {
                throw new IllegalArgumentException("batchIndex must be >= 0, was " + batchIndex);
            }
        }

        /** As Kafka's {@code ProduceResponse.RecordError}, which Kafka's partition-level message quotes. */
        @Override
        public String toString() {
            return "RecordError(batchIndex=" + batchIndex + ", message=" + (message == null ? "null" : "'" + message + "'") + ")";
        }
    }

    public InvalidRecordException(String message) {
        this(message, List.of());
    }

    public InvalidRecordException(String message, Throwable cause) {
        super(message, cause);
        this.recordErrors = List.of();
    }

    /**
     * @param message      the partition-level message
     * @param recordErrors the records at fault, in batch-index order (none if the whole batch is at fault)
     */
    public InvalidRecordException(String message, List<RecordError> recordErrors) {
        super(message);
        this.recordErrors = List.copyOf(Objects.requireNonNull(recordErrors, "recordErrors"));
    }

    /**
     * Kafka's refusal of a batch for some of its records ({@code LogValidator}): the partition-level message counts
     * them and quotes the first three.
     *
     * @throws IllegalArgumentException if {@code recordErrors} is empty
     */
    public static InvalidRecordException forRecords(List<RecordError> recordErrors) {
        if (recordErrors.isEmpty()) {
            throw new IllegalArgumentException("at least one record error is needed");
        }
        return new InvalidRecordException("One or more records have been rejected due to " + recordErrors.size()
                + " record errors in total, and only showing the first three errors at most: "
                + recordErrors.subList(0, Math.min(3, recordErrors.size())), recordErrors);
    }

    /** The refused records, in batch-index order; empty if the batch as a whole is refused. */
    public List<RecordError> recordErrors() {
        return recordErrors;
    }
}
