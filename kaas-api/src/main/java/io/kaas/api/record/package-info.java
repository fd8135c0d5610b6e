/**
 * The Kafka record-batch format v2 (magic 2), read just far enough for an engine to store and index
 * batches without decoding records: header fields, CRC32C validation and in-place offset assignment.
 */
package io.kaas.api.record;
