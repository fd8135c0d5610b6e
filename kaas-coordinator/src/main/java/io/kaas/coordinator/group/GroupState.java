package io.kaas.coordinator.group;

/** Kafka's classic group states, with the names ListGroups and DescribeGroups report. */
enum GroupState {
    /** No members; may still hold committed offsets. */
    EMPTY("Empty"),
    /** Waiting for members to (re)join. */
    PREPARING_REBALANCE("PreparingRebalance"),
    /** Joined; waiting for the leader's assignment in SyncGroup. */
    COMPLETING_REBALANCE("CompletingRebalance"),
    /** Assignment handed out; members heartbeat. */
    STABLE("Stable"),
    /** Removed; a group object in this state is never used again. */
    DEAD("Dead");

    private final String kafkaName;

    GroupState(String kafkaName) {
        this.kafkaName = kafkaName;
    }

    /** The name Kafka uses on the wire (e.g. {@code PreparingRebalance}). */
    public String kafkaName() {
        return kafkaName;
    }

    /** Whether a rebalance may start from this state. */
    boolean canRebalance() {
        return this == STABLE || this == COMPLETING_REBALANCE || this == EMPTY;
    }
}
