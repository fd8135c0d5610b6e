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
 * <h2>Transactions: how the SPI will serve them</h2>
 * Not served yet: no engine tracks transactions, {@link io.kaas.api.storage.LogOffsets#lastStableOffset()}
 * equals the high watermark, and nothing here exposes aborted ranges. When transactions come:
 * <ul>
 *   <li>Transactional data batches and the COMMIT/ABORT markers (control batches, one control record
 *       each) arrive through {@code PartitionLog.append} like any batch; their headers already say which
 *       they are ({@link io.kaas.api.record.BatchHeader#isTransactional()},
 *       {@link io.kaas.api.record.BatchHeader#isControl()}). A marker is written by the broker's
 *       transaction coordinator, never accepted from a client's Produce.</li>
 *   <li>The engine tracks, per producer id, the first offset of its open transaction (set by its first
 *       transactional batch, cleared by its marker). The last stable offset is the smallest such offset,
 *       or the high watermark if none is open; {@code LogOffsets} already carries it, and a
 *       read_committed fetch passes it as {@code read}'s {@code maxOffset}.</li>
 *   <li>Each ABORT marker closes an aborted range (producer id, first offset); a read_committed fetch
 *       needs the ranges that overlap what it returns. These will be a new {@code PartitionLog} method,
 *       added with its implementation in every engine and its TCK tests, in the same SPI version as the
 *       last-stable-offset tracking, and persisted (Kafka's transaction index) so they survive a restart.</li>
 * </ul>
 */
package io.kaas.api.storage;
