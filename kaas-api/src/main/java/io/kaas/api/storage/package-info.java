/**
 * The storage-engine SPI. A {@link io.kaas.api.storage.StorageEngineProvider} is discovered by name;
 * its {@link io.kaas.api.storage.StorageEngine} owns partitions, each a
 * {@link io.kaas.api.storage.PartitionLog} of verbatim v2 record batches. The broker's Produce,
 * Fetch, ListOffsets and DeleteRecords handlers serve every engine through these types alone.
 *
 * <p>Errors are unchecked {@link io.kaas.api.storage.StorageException} subclasses, each mapped by the
 * broker to one Kafka error code (named in each class's javadoc); a future completed exceptionally
 * carries one of them.
 *
 * <p>Division of work on the produce path: the broker validates each batch once and parses its header
 * ({@link io.kaas.api.record.ProducedBatches}); the engine assigns offsets, checks producer sequences
 * and stores the bytes. Engines may share the codecs and the idempotence window of the
 * {@code kaas-records} module; a plugin bundles that module in its own {@code lib/}.
 *
 * <h2>Transactions</h2>
 * Every engine tracks transactions from the batches it stores ({@code kaas-records}'
 * {@code TransactionTracker} does it for the bundled ones):
 * <ul>
 *   <li>Transactional data batches and the COMMIT/ABORT markers (control batches, whose first record's
 *       key is version and type, {@link io.kaas.api.record.ControlRecords}) arrive through
 *       {@code PartitionLog.append} like any batch; their headers say which they are
 *       ({@link io.kaas.api.record.BatchHeader#isTransactional()},
 *       {@link io.kaas.api.record.BatchHeader#isControl()}). A marker is written by the broker's
 *       transaction coordinator (the WriteTxnMarkers path), never accepted from a client's Produce (the broker
 *       refuses control batches from clients, and transactional batches to partitions not in the producer's
 *       transaction).</li>
 *   <li>Per producer id the engine keeps Kafka's producer state ({@link io.kaas.api.storage.ProducerState},
 *       listed by {@link io.kaas.api.storage.PartitionLog#producers()} for DescribeProducers): epoch, last
 *       sequence and timestamp, the coordinator epoch of its last marker, the first offset of its open
 *       transaction. A marker is checked as Kafka checks it: an epoch older than the producer's is
 *       {@link io.kaas.api.storage.InvalidProducerEpochException}, a coordinator epoch older than the one
 *       recorded {@link io.kaas.api.storage.TransactionCoordinatorFencedException}; an accepted marker sets
 *       both (later data of an older epoch is fenced), and a marker that raises the epoch (Transactions V2
 *       bumps it on every end) clears the sequences, so the producer's next batch starts at sequence 0. A
 *       non-transactional batch of a producer with an open transaction is
 *       {@link io.kaas.api.storage.InvalidTxnStateException}.</li>
 *   <li>Idle producers expire, as Kafka's {@code producer.id.expiration.ms}: the host passes the broker's
 *       {@code producer.id.expiration.ms} and {@code producer.id.expiration.check.interval.ms} in
 *       {@link io.kaas.api.storage.EngineContext#producerExpiration()} ({@link io.kaas.api.storage.ProducerExpiration}).
 *       About every check interval, on a background thread the engine already runs (not one per partition), the
 *       engine removes each producer whose last timestamp is at least the expiration older than the
 *       {@link io.kaas.api.storage.EngineContext#clock() engine's clock} and that has no transaction open on the
 *       partition, from memory and from what it persists (a restart does not bring it back); {@code producers()}
 *       no longer lists it, and its next batch is that of a new producer (any sequence is accepted).
 *       {@code kaas-records}' {@code ProducerWindows.expired}/{@code forget} implement the rule.</li>
 *   <li>Per producer id, the engine keeps the first offset of its open transaction (set by its first
 *       transactional batch, cleared by its marker).
 *       {@link io.kaas.api.storage.LogOffsets#lastStableOffset()} is the smallest such offset, or the high
 *       watermark if none is open; a read_committed fetch passes it as {@code read}'s {@code maxOffset}.</li>
 *   <li>Each ABORT marker of an open transaction closes an {@link io.kaas.api.storage.AbortedTransaction}
 *       (producer id, first offset, marker offset; a marker of a producer that wrote nothing to the partition
 *       leaves none, as in Kafka); {@link io.kaas.api.storage.PartitionLog#abortedTransactions} returns those
 *       overlapping what a read_committed fetch returns. Open transactions, producer state and aborted ranges
 *       survive a restart (and a crash) in every persistent engine; ranges wholly below the log start are
 *       dropped. An open transaction whose first offset falls below the log start (DeleteRecords, retention)
 *       stays open: the last stable offset is then the log start, as in Kafka.</li>
 *   <li>Compaction (where supported) keeps Kafka's rules: records of aborted transactions are dropped, a
 *       marker stays while a record of its transaction stays and goes after {@code delete.retention.ms} once
 *       its data is gone, and nothing at or above the last stable offset is compacted.</li>
 * </ul>
 */
package io.kaas.api.storage;
