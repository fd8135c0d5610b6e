package io.kaas.engine.segments.internal;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The contents of {@code manifest.json}. Only {@code logStartOffset} is authoritative on recovery; the
 * high watermark is the value at the time of writing (the log end is recovered from the segments).
 */
record Manifest(int epoch, long highWatermark, long logStartOffset) {

    String toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("epoch", epoch);
        m.put("highWatermark", highWatermark);
        m.put("logStartOffset", logStartOffset);
        return FlatJson.write(m);
    }

    static Manifest fromJson(String json) {
        Map<String, String> m = FlatJson.read(json);
        return new Manifest((int) FlatJson.requireLong(m, "epoch"), FlatJson.requireLong(m, "highWatermark"),
                FlatJson.requireLong(m, "logStartOffset"));
    }
}
