package io.kaas.engine.rocksdb.internal;

import java.time.Clock;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteOptions;

/**
 * What every partition log shares: the database, its two column families, the write options and
 * the WAL group committer. Owned and closed by {@link RocksDbEngine}.
 *
 * @param unsynced write options for appends (WAL on, no sync)
 * @param synced   write options for metadata changes that must be durable at once
 */
record Store(RocksDB db, ColumnFamilyHandle batches, ColumnFamilyHandle meta, WriteOptions unsynced,
             WriteOptions synced, WalSyncer syncer, Clock clock) {
}
