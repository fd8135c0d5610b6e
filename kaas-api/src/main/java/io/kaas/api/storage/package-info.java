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
 *       transaction coordinator, never accepted from a client's Produce (the broker refuses control batches
 *       from clients, and, until the coordinator exists, transactional batches too).</li>
 *   <li>Per producer id, the engine keeps the first offset of its open transaction (set by its first
 *       transactional batch, cleared by its marker).
 *       {@link io.kaas.api.storage.LogOffsets#lastStableOffset()} is the smallest such offset, or the high
 *       watermark if none is open; a read_committed fetch passes it as {@code read}'s {@code maxOffset}.</li>
 *   <li>Each ABORT marker closes an {@link io.kaas.api.storage.AbortedTransaction} (producer id, first
 *       offset, marker offset); {@link io.kaas.api.storage.PartitionLog#abortedTransactions} returns those
 *       overlapping what a read_committed fetch returns. Open transactions and aborted ranges survive a
 *       restart in every persistent engine; ranges wholly below the log start are dropped.</li>
 * </ul>
 */
package io.kaas.api.storage;
