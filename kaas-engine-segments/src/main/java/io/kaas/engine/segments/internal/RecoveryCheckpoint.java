package io.kaas.engine.segments.internal;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The contents of {@code recovery-checkpoint.json}: the active segment was fsynced up to {@code position},
 * where the next batch has offset {@code highWatermark}; recovery validates only what follows. It also
 * carries the segment's largest timestamp up to that position, so the time index needs no rescan.
 *
 * @param segment              base offset of the segment the position is in
 * @param position             byte position up to which the segment is fsynced, on a batch boundary
 * @param highWatermark        offset of the next batch at {@code position}
 * @param maxTimestamp         largest batch timestamp in the segment before {@code position}, or -1
 * @param offsetOfMaxTimestamp base offset of the batch carrying it, or -1
 */
record RecoveryCheckpoint(long segment, long position, long highWatermark, long maxTimestamp, long offsetOfMaxTimestamp) {

    /** True if this checkpoint is at or past {@code other} (never write a checkpoint backwards). */
    boolean notBefore(RecoveryCheckpoint other) {
        return other == null || segment > other.segment || (segment == other.segment && position >= other.position);
    }

    String toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("segment", segment);
        m.put("position", position);
        m.put("highWatermark", highWatermark);
        m.put("maxTimestamp", maxTimestamp);
        m.put("offsetOfMaxTimestamp", offsetOfMaxTimestamp);
        return FlatJson.write(m);
    }

    static RecoveryCheckpoint fromJson(String json) {
        Map<String, String> m = FlatJson.read(json);
        return new RecoveryCheckpoint(FlatJson.requireLong(m, "segment"), FlatJson.requireLong(m, "position"),
                FlatJson.requireLong(m, "highWatermark"), FlatJson.requireLong(m, "maxTimestamp"),
                FlatJson.requireLong(m, "offsetOfMaxTimestamp"));
    }
}
