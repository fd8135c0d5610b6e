package io.kaas.api.storage;

/**
 * A batch or a transaction marker carries an epoch older than its producer's current one on the partition (the
 * producer was fenced): INVALID_PRODUCER_EPOCH (47). Nothing is stored.
 */
public class InvalidProducerEpochException extends StorageException {
    public InvalidProducerEpochException(String message) {
        super(message);
    }

    public InvalidProducerEpochException(String message, Throwable cause) {
        super(message, cause);
    }
}
