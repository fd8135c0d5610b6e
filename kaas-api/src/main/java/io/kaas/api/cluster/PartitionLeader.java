package io.kaas.api.cluster;

/**
 * The single writer of one partition as the controller assigned it.
 *
 * @param leader            the node id of the writing broker, or {@link #NONE} while the partition has none
 * @param leaderEpoch       the partition's leader epoch: raised by every assignment that changes the writer (or its
 *                          registration), never lowered; what Metadata answers and what segment files are named with
 * @param leaderBrokerEpoch the {@link LiveBroker#brokerEpoch()} of the registration the partition was given to, or -1
 *                          with {@link #NONE}: a writer whose current registration has another broker epoch does not
 *                          own the partition (it restarted, and must be given the partition again with a new epoch)
 */
public record PartitionLeader(int leader, int leaderEpoch, long leaderBrokerEpoch) {
    /** Kafka's "no leader" node id. */
    public static final int NONE = -1;

    public PartitionLeader {
        if (leader < NONE) {
            throw new IllegalArgumentException("bad leader " + leader);
        }
        if (leaderEpoch < 0) {
            throw new IllegalArgumentException("negative leader epoch " + leaderEpoch);
        }
    }

    /** No writer, at {@code epoch} (the next assignment takes a higher one). */
    public static PartitionLeader none(int epoch) {
        return new PartitionLeader(NONE, epoch, -1);
    }

    public boolean hasLeader() {
        return leader != NONE;
    }

    /** The writer {@code broker} at the epoch after this one. */
    public PartitionLeader handedTo(LiveBroker broker) {
        return new PartitionLeader(broker.nodeId(), leaderEpoch + 1, broker.brokerEpoch());
    }
}
