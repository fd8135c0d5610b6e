package io.kaas.broker.coordinator;

import io.kaas.api.storage.PartitionFence;
import io.kaas.api.storage.PartitionKey;
import io.kaas.api.storage.PartitionLog;
import io.kaas.broker.cluster.OwnershipListener;
import io.kaas.coordinator.group.GroupCoordinator;
import io.kaas.coordinator.transaction.TransactionCoordinator;

/**
 * Hands a coordinator the partitions of its internal topic as this broker gains and loses them: register
 * {@link #of(GroupCoordinator, PartitionFence)} for {@code __consumer_offsets} and
 * {@link #of(TransactionCoordinator, PartitionFence)} for {@code __transaction_state} with the broker's partition
 * ownership. The coordinator gets each log behind the fence ({@link FencedCoordinatorLog}): an append is done only if
 * the broker still writes the partition once it is durable.
 */
public final class CoordinatorPartitions {
    private CoordinatorPartitions() {
    }

    /** Gains and losses of {@code __consumer_offsets} partitions, for the group coordinator. */
    public static OwnershipListener of(GroupCoordinator groups, PartitionFence fence) {
        return new OwnershipListener() {
            @Override
            public void gained(PartitionKey key, PartitionLog log, int leaderEpoch) {
                groups.onPartitionGained(key.partition(), new FencedCoordinatorLog(log, fence, leaderEpoch), leaderEpoch);
            }

            @Override
            public void lost(PartitionKey key, int leaderEpoch) {
                groups.onPartitionLost(key.partition());
            }
        };
    }

    /** Gains and losses of {@code __transaction_state} partitions, for the transaction coordinator. */
    public static OwnershipListener of(TransactionCoordinator transactions, PartitionFence fence) {
        return new OwnershipListener() {
            @Override
            public void gained(PartitionKey key, PartitionLog log, int leaderEpoch) {
                transactions.onPartitionGained(key.partition(), new FencedCoordinatorLog(log, fence, leaderEpoch),
                        leaderEpoch);
            }

            @Override
            public void lost(PartitionKey key, int leaderEpoch) {
                transactions.onPartitionLost(key.partition());
            }
        };
    }
}
