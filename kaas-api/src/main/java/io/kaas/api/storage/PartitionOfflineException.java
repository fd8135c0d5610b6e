package io.kaas.api.storage;

/** The partition is offline (a previous fsync failed or timed out) until restart: KAFKA_STORAGE_ERROR (56). */
public class PartitionOfflineException extends KafkaStorageException {
    public PartitionOfflineException(String message) {
        super(message);
    }

    public PartitionOfflineException(String message, Throwable cause) {
        super(message, cause);
    }
}
