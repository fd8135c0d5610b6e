/**
 * An in-memory storage engine, the example a plugin author copies: {@link
 * io.kaas.example.engine.MemoryEngineProvider} is found by ServiceLoader, the engine keeps each
 * partition's batches in a sorted map. Data lives as long as the broker process: nothing survives a
 * restart, so the engine declares the {@code PERSISTENCE} capability unsupported, and likewise
 * timestamp lookups.
 */
package io.kaas.example.engine;
