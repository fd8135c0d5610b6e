package io.kaas.coordinator.transaction;

/**
 * The coordinator's mutable view of one transactional id: its durable image and the change being written, if any
 * (Kafka's pending state: while set, no other change of the id starts and requests get CONCURRENT_TRANSACTIONS).
 * Guarded by its own monitor, which is never held across a log append or a marker write.
 */
final class TransactionMetadata {
    final String transactionalId;
    /** The state-log partition the id belongs to. */
    final int partition;
    /** The last image made durable (or, before the first write, the fresh one). */
    TransactionImage image;
    /** The state being written, or null. */
    TransactionState pending;
    /** The completion (markers, then the Complete state) of the last Prepare image, once one was started. */
    volatile java.util.concurrent.CompletableFuture<Void> completion;
    /** The image is in the log (loaded, or written once). */
    boolean durable;

    TransactionMetadata(String transactionalId, int partition, TransactionImage image, boolean durable) {
        this.transactionalId = transactionalId;
        this.partition = partition;
        this.image = image;
        this.durable = durable;
    }
}
