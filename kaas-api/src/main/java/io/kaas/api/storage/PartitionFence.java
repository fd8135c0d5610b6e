package io.kaas.api.storage;

/**
 * Tells an engine whether it is still the writer of a partition at an epoch: the host's lease and assignment check
 * ({@link EngineContext#fence()}). An engine asks it immediately before every change a successor could be hurt by and
 * the host does not see: deleting or replacing files in retention and compaction, rewriting metadata files. Lock-free
 * and cheap; callable from any thread.
 */
@FunctionalInterface
public interface PartitionFence {
    /** Never fenced: one broker alone on its data directory. */
    PartitionFence NONE = (key, epoch) -> true;

    /** Whether this broker still writes {@code key} at {@code leaderEpoch}. */
    boolean mayWrite(PartitionKey key, int leaderEpoch);
}
