package io.kaas.api.storage;

/** The partition's storage failed (I/O error, fsync failure, full disk): KAFKA_STORAGE_ERROR (56), retriable. */
public class KafkaStorageException extends StorageException {
    public KafkaStorageException(String message) {
        super(message);
    }

    public KafkaStorageException(String message, Throwable cause) {
        super(message, cause);
    }
}
