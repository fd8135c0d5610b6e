package io.kaas.api.storage;

/**
 * A producer with an open transaction on the partition appends a batch that is not transactional (Kafka's
 * "Expected transactional write from producer"): INVALID_TXN_STATE (48). Nothing is stored.
 */
public class InvalidTxnStateException extends StorageException {
    public InvalidTxnStateException(String message) {
        super(message);
    }

    public InvalidTxnStateException(String message, Throwable cause) {
        super(message, cause);
    }
}
