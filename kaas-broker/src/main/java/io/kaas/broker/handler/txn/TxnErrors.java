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

    /**
     * A verify-only answer as Kafka's coordinator gives it: a partition that is not in the transaction is
     * TRANSACTION_ABORTABLE (KIP-890), whichever code the coordinator used for it (INVALID_TXN_STATE).
     */
    public static short verified(short code) {
        return code == Errors.INVALID_TXN_STATE ? Errors.TRANSACTION_ABORTABLE : code;
    }

    /** Whether {@code transactionalId} can name a transaction (Kafka: INVALID_REQUEST for null or empty). */
    public static boolean isValidId(String transactionalId) {
        return transactionalId != null && !transactionalId.isEmpty();
    }
}
