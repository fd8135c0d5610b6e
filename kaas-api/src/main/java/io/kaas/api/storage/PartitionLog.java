package io.kaas.api.storage;

import io.kaas.api.record.BatchHeader;
import io.kaas.api.record.ProducedBatches;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * One partition's log of v2 record batches. All methods are thread-safe and never called on a
 * network event loop; they may block on I/O except where stated.
 */
public interface PartitionLog {

    PartitionKey key();

    /**
     * Appends batches the broker validated once ({@link ProducedBatches#validate}: sizes, magic and
     * CRC32C) with their parsed headers; the engine uses {@link ProducedBatches#headers()} and does not
     * parse the bytes again. The engine assigns offsets by rewriting each batch's base offset in place,
     * stamps log-append time if configured, and writes the bytes verbatim. It consumes {@code batches}
     * completely before this method returns, so the caller may reuse the buffer once the call returns;
     * appends are applied in call order.
     *
     * <p>Idempotent producers: a batch with a producer id and a base sequence is checked against the last
     * five batches of its producer id and epoch; a duplicate is not written again and the result carries
     * the offsets it got the first time.
     *
     * <p>Transactions (see {@link io.kaas.api.storage the package}): a transactional batch
     * ({@link BatchHeader#isTransactional()}) of a producer with no open transaction opens one at its base
     * offset; a control batch ({@link BatchHeader#isControl()}, a COMMIT or ABORT marker) closes it, and an
     * ABORT records an {@link AbortedTransaction} (none if the producer had no transaction open here). Control batches carry no sequence and skip the
     * idempotence window, but not the producer's epoch: a marker whose epoch is older than the producer's on
     * this partition is refused, one whose coordinator epoch (the marker's value) is older than the last one
     * recorded for the producer too; an accepted marker sets both, and a marker that raises the epoch (a
     * Transactions V2 end, or the abort that fences a zombie) starts the producer's sequences afresh at 0.
     * A producer with an open transaction may append transactional batches and its marker only.
     *
     * @param batches one or more whole batches; the engine may modify them as stated above
     * @param durable true for {@code acks=all}: the future completes only once the batches are on
     *                stable storage (fsynced); false: it completes once the batches are readable
     * @return completes with the assigned offsets, or exceptionally with a {@link StorageException}
     *         ({@link KafkaStorageException} if the data could not be made durable: nothing is
     *         acknowledged that may be lost)
     * @throws RecordTooLargeException if a batch exceeds {@link LogConfig#maxMessageBytes()}; nothing is stored
     * @throws InvalidRecordException if {@link LogConfig#compact()} is set and a record has no key (Kafka's
     *         "Compacted topic cannot accept message without key"); nothing is stored. Engines that compact
     *         decompress batches of compacted topics only, to check this, and name every keyless record in
     *         {@link InvalidRecordException#recordErrors()} ({@link InvalidRecordException#forRecords})
     * @see InvalidProducerEpochException a batch or marker of an older producer epoch (future, nothing stored)
     * @see OutOfOrderSequenceException a sequence gap, or a new epoch not starting at 0 (future, nothing stored)
     * @see TransactionCoordinatorFencedException a marker of an older coordinator epoch (future, nothing stored)
     * @see InvalidTxnStateException a non-transactional batch of a producer with an open transaction (future,
     *      nothing stored)
     */
    CompletableFuture<AppendResult> append(ProducedBatches batches, boolean durable);

    /**
     * Reads whole batches starting with the one that contains {@code offset}, stopping before any batch
     * that would pass {@code maxBytes} (but always returning at least the first batch when
     * {@code minOneBatch} is true) and before any batch starting at or after {@code maxOffset}.
     *
     * @param maxOffset exclusive upper bound, normally the high watermark or the last stable offset
     * @throws OffsetOutOfRangeException if {@code offset} is below the log start or above the high watermark
     */
    ReadResult read(long offset, int maxBytes, long maxOffset, boolean minOneBatch);

    /**
     * The aborted transactions whose range has data in [{@code fromOffset}, {@code toOffset}): those with
     * {@code firstOffset < toOffset} and {@code lastOffset >= fromOffset}, ordered by {@code lastOffset}
     * (Kafka's {@code collectAbortedTransactions}). A read_committed fetch asks for the range it returns.
     * Ranges wholly below the log start are gone. Lock-free or briefly locked; never blocks on I/O.
     */
    List<AbortedTransaction> abortedTransactions(long fromOffset, long toOffset);

    /**
     * The producers with state on this partition, idempotent and transactional (what Kafka's DescribeProducers
     * lists), in producer-id order: for each its epoch, last sequence and timestamp, the coordinator epoch of
     * its last marker and the first offset of its open transaction. The state survives a restart in every
     * persistent engine. Lock-free or briefly locked; never blocks on I/O.
     */
    List<ProducerState> producers();

    /** The current offsets; lock-free, safe to call from any thread, including an event loop. */
    LogOffsets offsets();

    /**
     * The bytes the partition's stored batches take, from the batch holding the log start to the end (Kafka's
     * {@code Log.size}, which DescribeLogDirs reports): batch bytes, without indexes or the engine's own overhead.
     * Cheap and lock-free enough to be called for every partition of a DescribeLogDirs request.
     */
    long sizeInBytes();

    /**
     * The first record whose timestamp is at or after {@code timestamp} (Kafka's ListOffsets by
     * timestamp), or empty if none.
     */
    Optional<TimestampOffset> offsetForTimestamp(long timestamp);

    /** The record with the largest timestamp (the first one if tied), or empty if the log is empty. */
    Optional<TimestampOffset> maxTimestamp();

    /**
     * Advances the log start offset to {@code offset} (DeleteRecords); data below it becomes
     * unreadable and is removed when its segment no longer holds any readable record. The new log
     * start survives a restart once the future completes.
     *
     * @throws OffsetOutOfRangeException if {@code offset} is above the high watermark
     */
    CompletableFuture<Long> deleteRecordsBefore(long offset);

    /** The leader epoch this log was opened with for writing (0 for an engine that does not share a volume). */
    default int leaderEpoch() {
        return 0;
    }

    /**
     * The leader epochs of this log, oldest first, each with the offset it starts at; the last is {@link #leaderEpoch()}.
     * Epochs whose records all lie below the log start may be gone. For OffsetForLeaderEpoch and for fetchers that
     * truncate (Kafka's {@code LeaderEpochFileCache}). Lock-free or briefly locked; never blocks on I/O.
     */
    default java.util.List<EpochStart> epochs() {
        return java.util.List.of(new EpochStart(leaderEpoch(), offsets().logStartOffset()));
    }

    /**
     * Applies changed settings; takes effect for later appends and retention passes. The broker has
     * checked them with {@link StorageEngine#checkConfig} first.
     */
    void updateConfig(LogConfig config);
}
