/**
 * The RocksDB engine's implementation: key layout ({@code Keys}), per-partition metadata and producer
 * state, the WAL group committer and the partition log. Not exported.
 */
package io.kaas.engine.rocksdb.internal;
