package io.kaas.api.storage;

/** A batch exceeds the partition's max.message.bytes: MESSAGE_TOO_LARGE (10). */
public class RecordTooLargeException extends StorageException {
    public RecordTooLargeException(String message) {
        super(message);
    }

    public RecordTooLargeException(String message, Throwable cause) {
        super(message, cause);
    }
}
