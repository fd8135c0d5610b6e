/**
 * What storage engines share about v2 record batches beyond the SPI: {@link io.kaas.records.CompressionCodecs},
 * {@link io.kaas.records.RecordCursor}, {@link io.kaas.records.RecordTimestamps} and {@link io.kaas.records.ProducerWindows}.
 */
package io.kaas.records;
