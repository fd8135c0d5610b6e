/**
 * The RocksDB storage engine ({@code storage.engine=rocksdb}): record batches stored verbatim in a
 * RocksDB column family keyed by (topic id, partition, base offset), per-partition offsets and
 * producer state in another, durable appends group-committed through the WAL. Nothing is exported;
 * the broker finds the engine through {@link java.util.ServiceLoader} or as a plugin.
 */
@SuppressWarnings("requires-automatic")
module io.kaas.engine.rocksdb {
    requires io.kaas.api;
    requires io.kaas.records;
    requires org.slf4j;
    requires rocksdbjni; // no Automatic-Module-Name in the rocksdbjni jar: the name derives from the file
    // The codec libraries io.kaas.records reads, for timestamp lookups inside compressed batches
    // (automatic modules except zstd-jni).
    requires snappy.java;
    requires org.lz4.java;
    requires com.github.luben.zstd_jni;

    provides io.kaas.api.storage.StorageEngineProvider with io.kaas.engine.rocksdb.RocksDbEngineProvider;
}
