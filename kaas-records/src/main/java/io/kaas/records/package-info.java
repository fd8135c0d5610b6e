/**
 * What storage engines share about v2 record batches beyond the SPI: {@link io.kaas.records.CompressionCodecs},
 * {@link io.kaas.records.RecordCursor}, {@link io.kaas.records.RecordTimestamps}, {@link io.kaas.records.ProducerWindows} and
 * {@link io.kaas.records.TransactionTracker}.
 */
package io.kaas.records;
