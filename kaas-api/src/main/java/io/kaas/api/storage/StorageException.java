package io.kaas.api.storage;

/** A storage failure. Base of the engine errors; as itself it maps to UNKNOWN_SERVER_ERROR (-1). */
public class StorageException extends RuntimeException {
    public StorageException(String message) {
        super(message);
    }

    public StorageException(String message, Throwable cause) {
        super(message, cause);
    }
}
