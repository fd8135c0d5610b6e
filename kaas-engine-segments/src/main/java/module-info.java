/**
 * The default kaas storage engine ({@code storage.engine=segments}): each partition is a directory of
 * segment files holding v2 record batches verbatim, with sparse offset indexes, group-committed fsyncs
 * and crash recovery that truncates a torn tail. Nothing is exported; the broker finds the engine
 * through {@link java.util.ServiceLoader}.
 */
module io.kaas.engine.segments {
    requires io.kaas.api;
    requires io.kaas.records;
    requires org.slf4j;
    // The codec libraries io.kaas.records reads, for compaction, the keyless-record check of compacted topics
    // and timestamp lookups in compressed batches. snappy-java and lz4-java are automatic modules.
    requires snappy.java;
    requires org.lz4.java;
    requires com.github.luben.zstd_jni;

    provides io.kaas.api.storage.StorageEngineProvider with io.kaas.engine.segments.SegmentEngineProvider;
}
