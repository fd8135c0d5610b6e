package io.kaas.engine.rocksdb.internal;

import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.plugin.PluginConfigException;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.rocksdb.CompressionType;

/**
 * The engine's settings, read from the keys under {@code storage.rocksdb.} (prefix removed).
 *
 * @param blockCacheBytes  size of the LRU block cache shared by both column families ({@code block.cache.bytes})
 * @param compression      block compression of the batches column family ({@code compression}: none, snappy,
 *                         lz4, zstd); none by default, since producers usually compress batches already
 * @param writeBufferBytes memtable size of the batches column family ({@code write.buffer.bytes})
 * @param retentionCheckIntervalMs period of the background retention pass ({@code retention.check.interval.ms},
 *                         as Kafka's {@code log.retention.check.interval.ms})
 */
public record RocksDbConfig(long blockCacheBytes, String compression, long writeBufferBytes,
                            long retentionCheckIntervalMs) {
    public static final String BLOCK_CACHE_BYTES = "block.cache.bytes";
    public static final String COMPRESSION = "compression";
    public static final String WRITE_BUFFER_BYTES = "write.buffer.bytes";
    public static final String RETENTION_CHECK_INTERVAL_MS = "retention.check.interval.ms";
    /** Every key {@link #from} reads. */
    public static final Set<String> KEYS = Set.of(BLOCK_CACHE_BYTES, COMPRESSION, WRITE_BUFFER_BYTES,
            RETENTION_CHECK_INTERVAL_MS);

    private static final Map<String, CompressionType> COMPRESSIONS = Map.of(
            "none", CompressionType.NO_COMPRESSION,
            "snappy", CompressionType.SNAPPY_COMPRESSION,
            "lz4", CompressionType.LZ4_COMPRESSION,
            "zstd", CompressionType.ZSTD_COMPRESSION);

    /** Binds and checks the settings; throws {@link PluginConfigException} naming the bad key. */
    public static RocksDbConfig from(PluginConfig config) {
        long cache = config.getLong(BLOCK_CACHE_BYTES, 64L * 1024 * 1024);
        if (cache < 0) {
            throw new PluginConfigException(BLOCK_CACHE_BYTES, "must be 0 or more, got " + cache);
        }
        String compression = config.getString(COMPRESSION, "none").toLowerCase(Locale.ROOT);
        if (!COMPRESSIONS.containsKey(compression)) {
            throw new PluginConfigException(COMPRESSION, "expected one of none, snappy, lz4, zstd, got '" + compression + "'");
        }
        long writeBuffer = config.getLong(WRITE_BUFFER_BYTES, 64L * 1024 * 1024);
        if (writeBuffer < 64 * 1024) {
            throw new PluginConfigException(WRITE_BUFFER_BYTES, "must be at least 65536, got " + writeBuffer);
        }
        long retentionCheck = config.getLong(RETENTION_CHECK_INTERVAL_MS, 300_000L);
        if (retentionCheck < 1) {
            throw new PluginConfigException(RETENTION_CHECK_INTERVAL_MS, "must be at least 1, got " + retentionCheck);
        }
        return new RocksDbConfig(cache, compression, writeBuffer, retentionCheck);
    }

    CompressionType compressionType() {
        return COMPRESSIONS.get(compression);
    }
}
