package io.kaas.api.storage;

/** A batch's sequence does not follow its producer's last one: OUT_OF_ORDER_SEQUENCE_NUMBER (45). */
public class OutOfOrderSequenceException extends StorageException {
    public OutOfOrderSequenceException(String message) {
        super(message);
    }

    public OutOfOrderSequenceException(String message, Throwable cause) {
        super(message, cause);
    }
}
