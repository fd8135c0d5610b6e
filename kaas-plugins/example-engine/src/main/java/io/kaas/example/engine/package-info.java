/**
 * An in-memory storage engine, the example a plugin author copies: {@link
 * io.kaas.example.engine.MemoryEngineProvider} is found by ServiceLoader, the engine keeps each
 * partition's batches in a sorted map. Data lives as long as the broker process: nothing survives a
 * restart, so the engine declares the {@code PERSISTENCE} capability unsupported, and likewise
 * timestamp lookups and compaction. The idempotent-producer window comes from {@code kaas-records},
 * which the plugin zip packs in its {@code lib/}: a plugin sees only the host's SPI packages.
 */
package io.kaas.example.engine;
