package io.kaas.broker.cluster;

import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;

/**
 * Told when this broker becomes and stops being the writer of a partition of one topic (the coordinators listen for
 * {@code __consumer_offsets} and {@code __transaction_state}, whose partitions carry the groups and transactional ids
 * hashed to them). Calls for one partition come in order, gained before lost, on a thread of the broker's that may
 * block on I/O (loading state); one call at a time per topic.
 */
public interface OwnershipListener {
    /** This broker now writes {@code key} at {@code leaderEpoch}; {@code log} is open (recovered). */
    void gained(PartitionKey key, PartitionLog log, int leaderEpoch);

    /** This broker no longer writes {@code key} (moved, fenced, deleted, or the broker is stopping). */
    void lost(PartitionKey key, int leaderEpoch);
}
