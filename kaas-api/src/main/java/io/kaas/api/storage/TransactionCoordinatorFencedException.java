package io.kaas.api.storage;

/**
 * A transaction marker carries a coordinator epoch older than the one the partition recorded for its
 * producer (a zombie coordinator wrote it): TRANSACTION_COORDINATOR_FENCED (52). Nothing is stored.
 */
public class TransactionCoordinatorFencedException extends StorageException {
    public TransactionCoordinatorFencedException(String message) {
        super(message);
    }

    public TransactionCoordinatorFencedException(String message, Throwable cause) {
        super(message, cause);
    }
}
