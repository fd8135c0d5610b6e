package io.kaas.broker.handler.txn;

import io.kaas.wire.protocol.Errors;

/** Error translations Kafka makes in its transaction handlers. */
public final class TxnErrors {
    private TxnErrors() {
    }

    /**
     * PRODUCER_FENCED as clients of {@code version} understand it: INVALID_PRODUCER_EPOCH below
     * {@code firstVersionWithFenced} (older clients do not know the code; Kafka answers them so), else unchanged.
     */
    public static short fenced(short code, short version, int firstVersionWithFenced) {
        return code == Errors.PRODUCER_FENCED && version < firstVersionWithFenced ? Errors.INVALID_PRODUCER_EPOCH : code;
    }

    /** Whether {@code transactionalId} can name a transaction (Kafka: INVALID_REQUEST for null or empty). */
    public static boolean isValidId(String transactionalId) {
        return transactionalId != null && !transactionalId.isEmpty();
    }
}
