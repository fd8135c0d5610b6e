package io.kaas.api.storage;

/**
 * When an engine forgets the state of an idle producer, as Kafka's partition leader does: a producer whose last
 * write (the max timestamp of its last data batch, or the timestamp of its last transaction marker) is at least
 * {@code expirationMs} older than the engine's clock, and that has no transaction open on the partition, is
 * removed from the partition's producer state, in memory and in what the engine persists, by a pass the engine
 * runs about every {@code checkIntervalMs}. A producer that writes again afterwards is a new producer: its first
 * batch may carry any sequence, as in Kafka.
 *
 * <p>The broker fills it from Kafka's broker settings {@code producer.id.expiration.ms} and
 * {@code producer.id.expiration.check.interval.ms}.
 *
 * @param expirationMs    {@code producer.id.expiration.ms}: how long a producer may stay idle (at least 1)
 * @param checkIntervalMs {@code producer.id.expiration.check.interval.ms}: how often the engine looks for expired
 *                        producers (at least 1)
 */
public record ProducerExpiration(long expirationMs, long checkIntervalMs) {
    /** Kafka's defaults: 86400000 (one day) and 600000 (ten minutes). */
    public static final ProducerExpiration KAFKA_DEFAULTS = new ProducerExpiration(86_400_000L, 600_000L);

    /** @throws IllegalArgumentException if either value is below 1 */
    public ProducerExpiration {
        if (expirationMs < 1) {
            throw new IllegalArgumentException("producer.id.expiration.ms must be at least 1, got " + expirationMs);
        }
        if (checkIntervalMs < 1) {
            throw new IllegalArgumentException("producer.id.expiration.check.interval.ms must be at least 1, got "
                    + checkIntervalMs);
        }
    }

    /**
     * Whether a producer whose last write was at {@code lastTimestamp} has expired at {@code nowMs} (Kafka's rule:
     * {@code nowMs - lastTimestamp >= expirationMs}; an unknown timestamp, -1, counts as very old). The caller
     * keeps every producer with an open transaction whatever this says.
     */
    public boolean isExpired(long lastTimestamp, long nowMs) {
        return nowMs - lastTimestamp >= expirationMs;
    }
}
