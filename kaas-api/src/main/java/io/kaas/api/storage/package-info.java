/**
 * The storage-engine SPI. A {@link io.kaas.api.storage.StorageEngineProvider} is discovered by name;
 * its {@link io.kaas.api.storage.StorageEngine} owns partitions, each a
 * {@link io.kaas.api.storage.PartitionLog} of verbatim v2 record batches. The broker's Produce,
 * Fetch, ListOffsets and DeleteRecords handlers serve every engine through these types alone.
 *
 * <p>Errors are unchecked {@link io.kaas.api.storage.StorageException} subclasses, each mapped by the
 * broker to one Kafka error code (named in each class's javadoc); a future completed exceptionally
 * carries one of them.
 */
package io.kaas.api.storage;
