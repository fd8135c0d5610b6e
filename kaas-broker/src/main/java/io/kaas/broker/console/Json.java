package io.kaas.broker.console;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.kaas.broker.admin.Answer;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/** The console API's JSON: answers from plain maps and lists, request bodies read as trees. */
final class Json {

    static final ObjectMapper MAPPER = new ObjectMapper();
    private static final ObjectMapper PRETTY = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    static {
        MAPPER.getFactory().setStreamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).build());
    }

    private Json() {
    }

    /** {@code status} with {@code value} (maps, lists, strings, numbers, booleans, nulls) encoded. */
    static Answer answer(int status, Object value) {
        try {
            // Live data: a browser must not show a stale copy.
            return Answer.json(status, MAPPER.writeValueAsBytes(value)).withHeader("Cache-Control", "no-store");
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode a console answer: " + e.getMessage(), e);
        }
    }

    /** The error body of {@code e}. */
    static Answer error(ApiError e) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", e.error());
        body.put("message", e.getMessage());
        body.putAll(e.extra());
        Answer a = answer(e.status(), body);
        return e.status() == 401 ? a.withHeader("WWW-Authenticate", "Basic realm=\"kaas\", charset=\"UTF-8\"") : a;
    }

    /**
     * The JSON object in {@code body}.
     *
     * @throws ApiError 400 if it is empty, not JSON, or not an object
     */
    static JsonNode object(byte[] body) {
        if (body.length == 0) {
            throw ApiError.badRequest("the request has no body (a JSON object is expected)");
        }
        JsonNode node;
        try {
            node = MAPPER.readTree(body);
        } catch (IOException e) {
            String m = e.getMessage() == null ? e.toString() : e.getMessage();
            int nl = m.indexOf('\n');
            throw ApiError.badRequest("malformed JSON: " + (nl > 0 ? m.substring(0, nl) : m));
        }
        if (node == null || !node.isObject()) {
            throw ApiError.badRequest("the request body must be a JSON object");
        }
        return node;
    }

    /** {@code node} pretty-printed. */
    static String pretty(JsonNode node) {
        try {
            return PRETTY.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Field {@code name} of {@code body} as text, required. */
    static String requiredText(JsonNode body, String name) {
        JsonNode n = body.get(name);
        if (n == null || n.isNull()) {
            throw ApiError.badRequest("missing field '" + name + "'");
        }
        if (!n.isTextual()) {
            throw ApiError.badRequest("field '" + name + "' must be a string");
        }
        return n.asText();
    }

    /** Field {@code name} of {@code body} as an integer, required. */
    static long requiredLong(JsonNode body, String name) {
        JsonNode n = body.get(name);
        if (n == null || n.isNull()) {
            throw ApiError.badRequest("missing field '" + name + "'");
        }
        if (!n.isIntegralNumber() || !n.canConvertToLong()) {
            throw ApiError.badRequest("field '" + name + "' must be an integer");
        }
        return n.asLong();
    }

    /** Field {@code name} of {@code body} as an int, or {@code fallback} when absent or null. */
    static Integer optionalInt(JsonNode body, String name, Integer fallback) {
        JsonNode n = body.get(name);
        if (n == null || n.isNull()) {
            return fallback;
        }
        if (!n.isIntegralNumber() || !n.canConvertToInt()) {
            throw ApiError.badRequest("field '" + name + "' must be an integer");
        }
        return n.asInt();
    }

    /** Field {@code name} of {@code body} as a string or null; absent is null. */
    static String optionalText(JsonNode body, String name) {
        JsonNode n = body.get(name);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isTextual()) {
            throw ApiError.badRequest("field '" + name + "' must be a string or null");
        }
        return n.asText();
    }
}
