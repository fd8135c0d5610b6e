package io.kaas.api.storage;

/** A record the partition refuses (for example a keyless record on a compacted topic): INVALID_RECORD (87). */
public class InvalidRecordException extends StorageException {
    public InvalidRecordException(String message) {
        super(message);
    }

    public InvalidRecordException(String message, Throwable cause) {
        super(message, cause);
    }
}
