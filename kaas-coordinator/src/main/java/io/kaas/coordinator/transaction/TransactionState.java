package io.kaas.coordinator.transaction;

import java.util.Optional;

/**
 * Kafka's transaction states, with the names DescribeTransactions and ListTransactions report (and
 * {@code kafka-transactions} prints). Kafka's transitions: Empty → Ongoing → PrepareCommit | PrepareAbort →
 * CompleteCommit | CompleteAbort → Ongoing | Empty …; Ongoing → PrepareEpochFence → PrepareAbort when a newer
 * producer instance fences an open transaction; Dead once an idle transactional id expired.
 */
public enum TransactionState {
    EMPTY("Empty"),
    ONGOING("Ongoing"),
    PREPARE_COMMIT("PrepareCommit"),
    PREPARE_ABORT("PrepareAbort"),
    COMPLETE_COMMIT("CompleteCommit"),
    COMPLETE_ABORT("CompleteAbort"),
    DEAD("Dead"),
    PREPARE_EPOCH_FENCE("PrepareEpochFence");

    private final String kafkaName;

    TransactionState(String kafkaName) {
        this.kafkaName = kafkaName;
    }

    /** The name on the wire ("Ongoing", "CompleteCommit"…). */
    public String kafkaName() {
        return kafkaName;
    }

    /** The state named {@code name} on the wire, exactly as Kafka spells it; empty if none is. */
    public static Optional<TransactionState> fromKafkaName(String name) {
        for (TransactionState s : values()) {
            if (s.kafkaName.equals(name)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }
}
