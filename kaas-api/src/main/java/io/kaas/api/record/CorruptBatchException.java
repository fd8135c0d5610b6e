package io.kaas.api.record;

/** Bytes that are not a well-formed v2 record batch: Kafka's CORRUPT_MESSAGE (2). */
public class CorruptBatchException extends RuntimeException {
    public CorruptBatchException(String message) {
        super(message);
    }
}
