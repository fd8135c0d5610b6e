package io.kaas.broker.console;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How the message browser shows a key, value or header value: {@code json} (pretty-printed) when the bytes are a
 * JSON object or array, {@code text} when they are valid UTF-8 without control characters (tab, newline and
 * carriage return allowed), {@code hex} otherwise; cut to {@code maxBytes} of the original bytes
 * ({@code truncated} says so, {@code sizeBytes} is the full size). A null payload is rendered as null.
 */
final class PayloadRenderer {

    private PayloadRenderer() {
    }

    /** The payload object of {@code bytes}, or null for null. */
    static Map<String, Object> render(byte[] bytes, int maxBytes) {
        if (bytes == null) {
            return null;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        String text = utf8(bytes);
        boolean truncated = bytes.length > maxBytes;
        if (text != null && !hasControl(text)) {
            JsonNode json = truncated ? null : json(text);
            if (json != null) {
                out.put("encoding", "json");
                out.put("text", Json.pretty(json));
            } else {
                out.put("encoding", looksLikeJson(text) && truncated ? "json" : "text");
                out.put("text", truncated ? cutUtf8(bytes, maxBytes) : text);
            }
        } else {
            out.put("encoding", "hex");
            out.put("text", HexFormat.of().formatHex(bytes, 0, Math.min(bytes.length, maxBytes)));
        }
        out.put("sizeBytes", bytes.length);
        out.put("truncated", truncated);
        return out;
    }

    private static boolean looksLikeJson(String text) {
        String t = text.stripLeading();
        return t.startsWith("{") || t.startsWith("[");
    }

    private static JsonNode json(String text) {
        if (!looksLikeJson(text)) {
            return null;
        }
        try {
            JsonNode n = Json.MAPPER.readTree(text);
            return n != null && (n.isObject() || n.isArray()) ? n : null;
        } catch (java.io.IOException e) {
            return null;
        }
    }

    private static String utf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    private static boolean hasControl(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F) {
                return true;
            }
        }
        return false;
    }

    /** The text of the first {@code max} bytes, not cutting a character in two. */
    private static String cutUtf8(byte[] bytes, int max) {
        int end = max;
        while (end > 0 && (bytes[end] & 0xC0) == 0x80) {
            end--;
        }
        CharBuffer chars = StandardCharsets.UTF_8.decode(ByteBuffer.wrap(bytes, 0, end));
        return chars.toString();
    }
}
