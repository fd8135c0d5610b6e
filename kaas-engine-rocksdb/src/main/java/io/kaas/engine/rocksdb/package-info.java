/** The RocksDB engine's provider, the only public type; everything else is in {@code internal}. */
package io.kaas.engine.rocksdb;
