package io.kaas.engine.segments.internal;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes and reads the engine's tiny JSON files: one flat object whose values are integers or plain
 * strings (no escapes needed: topic ids and numbers only). Kept dependency-free on purpose; a value
 * this reader does not understand is a corrupt file.
 */
final class FlatJson {
    private FlatJson() {
    }

    static String write(Map<String, ?> values) {
        StringBuilder sb = new StringBuilder("{");
        values.forEach((k, v) -> {
            if (sb.length() > 1) {
                sb.append(',');
            }
            sb.append('"').append(k).append("\":");
            if (v instanceof Number) {
                sb.append(v);
            } else {
                sb.append('"').append(v).append('"');
            }
        });
        return sb.append("}\n").toString();
    }

    /** Parses a flat object; values come back as strings. */
    static Map<String, String> read(String json) {
        String s = json.strip();
        if (!s.startsWith("{") || !s.endsWith("}")) {
            throw new IllegalArgumentException("not a JSON object: " + json);
        }
        Map<String, String> out = new LinkedHashMap<>();
        String body = s.substring(1, s.length() - 1).strip();
        if (body.isEmpty()) {
            return out;
        }
        for (String pair : body.split(",")) {
            int colon = pair.indexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException("malformed JSON member: " + pair);
            }
            out.put(unquote(pair.substring(0, colon)), unquote(pair.substring(colon + 1)));
        }
        return out;
    }

    static long requireLong(Map<String, String> values, String key) {
        String v = values.get(key);
        if (v == null) {
            throw new IllegalArgumentException("missing field " + key);
        }
        return Long.parseLong(v);
    }

    private static String unquote(String raw) {
        String t = raw.strip();
        if (t.length() >= 2 && t.startsWith("\"") && t.endsWith("\"")) {
            return t.substring(1, t.length() - 1);
        }
        return t;
    }
}
