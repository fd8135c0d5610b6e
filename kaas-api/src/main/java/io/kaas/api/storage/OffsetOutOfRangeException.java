package io.kaas.api.storage;

/** The requested offset is outside the log: OFFSET_OUT_OF_RANGE (1). */
public class OffsetOutOfRangeException extends StorageException {
    public OffsetOutOfRangeException(String message) {
        super(message);
    }

    public OffsetOutOfRangeException(String message, Throwable cause) {
        super(message, cause);
    }
}
