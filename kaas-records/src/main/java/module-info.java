/**
 * Record-batch helpers shared by storage engines: compression codecs, a record walk and the
 * idempotent-producer window. The codec libraries are read only if present (an engine that
 * decompresses puts them on its path; the producer window needs none). snappy-java and lz4-java are
 * automatic modules.
 */
@SuppressWarnings("requires-automatic")
module io.kaas.records {
    requires transitive io.kaas.api;
    requires static snappy.java;
    requires static org.lz4.java;
    requires static com.github.luben.zstd_jni;

    exports io.kaas.records;
}
