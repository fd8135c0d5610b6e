package io.kaas.coordinator.transaction;

/**
 * The transaction coordinator's settings, under Kafka's broker config names.
 *
 * @param maxTimeoutMs                 {@code transaction.max.timeout.ms} (900000): a longer requested
 *                                     {@code transaction.timeout.ms} is INVALID_TRANSACTION_TIMEOUT
 * @param stateLogPartitions           {@code transaction.state.log.num.partitions} (50): partitions of
 *                                     {@code __transaction_state}; fixed once the topic exists
 * @param idExpirationMs               {@code transactional.id.expiration.ms} (604800000): an id idle this long
 *                                     (no transaction open) is removed
 * @param abortTimedOutIntervalMs      {@code transaction.abort.timed.out.transaction.cleanup.interval.ms} (10000)
 * @param removeExpiredIntervalMs      {@code transaction.remove.expired.transaction.cleanup.interval.ms} (3600000)
 */
public record TransactionConfig(int maxTimeoutMs, int stateLogPartitions, long idExpirationMs,
                                long abortTimedOutIntervalMs, long removeExpiredIntervalMs) {

    /** Kafka's defaults. */
    public static TransactionConfig defaults() {
        return new TransactionConfig(900_000, 50, 604_800_000L, 10_000L, 3_600_000L);
    }

    public TransactionConfig {
        if (maxTimeoutMs < 1 || stateLogPartitions < 1 || idExpirationMs < 1 || abortTimedOutIntervalMs < 1
                || removeExpiredIntervalMs < 1) {
            throw new IllegalArgumentException("transaction settings must be positive: " + maxTimeoutMs + ", "
                    + stateLogPartitions + ", " + idExpirationMs + ", " + abortTimedOutIntervalMs + ", "
                    + removeExpiredIntervalMs);
        }
    }
}
