/**
 * The default kaas storage engine ({@code storage.engine=segments}): each partition is a directory of
 * segment files holding v2 record batches verbatim, with sparse offset indexes, group-committed fsyncs
 * and crash recovery that truncates a torn tail. Nothing is exported; the broker finds the engine
 * through {@link java.util.ServiceLoader}.
 */
module io.kaas.engine.segments {
    requires io.kaas.api;
    requires org.slf4j;
    // Compression codecs, for compaction and the keyless-record check of compacted topics. snappy-java and
    // lz4-java are automatic modules (names derived from the jar name / Automatic-Module-Name).
    requires snappy.java;
    requires org.lz4.java;
    requires com.github.luben.zstd_jni;

    provides io.kaas.api.storage.StorageEngineProvider with io.kaas.engine.segments.SegmentEngineProvider;
}
