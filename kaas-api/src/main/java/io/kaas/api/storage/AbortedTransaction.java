package io.kaas.api.storage;

/**
 * An aborted transaction of one producer on one partition: its data lies in
 * [{@code firstOffset}, {@code lastOffset}) and its ABORT marker at {@code lastOffset}. A read_committed
 * fetch sends {@code (producerId, firstOffset)} in Fetch v4+ {@code aborted_transactions} so the consumer
 * drops that producer's batches from {@code firstOffset} up to the marker.
 *
 * @param producerId  the producer whose transaction was aborted
 * @param firstOffset the offset of the transaction's first batch on this partition (a transaction that
 *                    wrote nothing here leaves no range, as in Kafka)
 * @param lastOffset  the offset of the ABORT marker
 */
public record AbortedTransaction(long producerId, long firstOffset, long lastOffset) {
    public AbortedTransaction {
        if (firstOffset < 0 || lastOffset < firstOffset) {
            throw new IllegalArgumentException("aborted range [" + firstOffset + ", " + lastOffset + "] is not valid");
        }
    }

    /** Whether the range has data in [{@code fromOffset}, {@code toOffset}). */
    public boolean overlaps(long fromOffset, long toOffset) {
        return firstOffset < toOffset && lastOffset >= fromOffset;
    }
}
