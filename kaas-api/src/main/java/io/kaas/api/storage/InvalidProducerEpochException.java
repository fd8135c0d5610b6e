package io.kaas.api.storage;

/** A batch carries an epoch older than its producer's current one: INVALID_PRODUCER_EPOCH (47). */
public class InvalidProducerEpochException extends StorageException {
    public InvalidProducerEpochException(String message) {
        super(message);
    }

    public InvalidProducerEpochException(String message, Throwable cause) {
        super(message, cause);
    }
}
