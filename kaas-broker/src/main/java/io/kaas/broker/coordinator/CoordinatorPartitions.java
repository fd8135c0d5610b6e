package io.kaas.broker.coordinator;

import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.broker.cluster.OwnershipListener;
import io.kaas.coordinator.group.GroupCoordinator;
import io.kaas.coordinator.transaction.TransactionCoordinator;

/**
 * Hands a coordinator the partitions of its internal topic as this broker gains and loses them: register
 * {@link #of(GroupCoordinator)} for {@code __consumer_offsets} and {@link #of(TransactionCoordinator)} for
 * {@code __transaction_state} with the broker's partition ownership.
 */
public final class CoordinatorPartitions {
    private CoordinatorPartitions() {
    }

    /** Gains and losses of {@code __consumer_offsets} partitions, for the group coordinator. */
    public static OwnershipListener of(GroupCoordinator groups) {
        return new OwnershipListener() {
            @Override
            public void gained(PartitionKey key, PartitionLog log, int leaderEpoch) {
                groups.onPartitionGained(key.partition(), log, leaderEpoch);
            }

            @Override
            public void lost(PartitionKey key, int leaderEpoch) {
                groups.onPartitionLost(key.partition());
            }
        };
    }

    /** Gains and losses of {@code __transaction_state} partitions, for the transaction coordinator. */
    public static OwnershipListener of(TransactionCoordinator transactions) {
        return new OwnershipListener() {
            @Override
            public void gained(PartitionKey key, PartitionLog log, int leaderEpoch) {
                transactions.onPartitionGained(key.partition(), log, leaderEpoch);
            }

            @Override
            public void lost(PartitionKey key, int leaderEpoch) {
                transactions.onPartitionLost(key.partition());
            }
        };
    }
}
