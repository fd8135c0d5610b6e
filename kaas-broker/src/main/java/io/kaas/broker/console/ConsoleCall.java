package io.kaas.broker.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.kaas.broker.admin.AdminRequest;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/** One console API request as a resource sees it: who, its query parameters and its JSON body. */
final class ConsoleCall {

    private final Caller caller;
    private final AdminRequest request;
    private final Map<String, String> params;

    ConsoleCall(Caller caller, AdminRequest request) {
        this.caller = caller;
        this.request = request;
        this.params = parse(request.query());
    }

    private static Map<String, String> parse(String query) {
        Map<String, String> out = new HashMap<>();
        if (query.isEmpty()) {
            return out;
        }
        for (String pair : query.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String k = decode(eq < 0 ? pair : pair.substring(0, eq));
            String v = eq < 0 ? "" : decode(pair.substring(eq + 1));
            out.putIfAbsent(k, v);
        }
        return out;
    }

    static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest("malformed percent-encoding in '" + s + "'");
        }
    }

    Caller caller() {
        return caller;
    }

    /** Query parameter {@code name}, or null. */
    String param(String name) {
        return params.get(name);
    }

    /** Query parameter {@code name} as a long in [min, max], {@code fallback} when absent. */
    long longParam(String name, long fallback, long min, long max) {
        String v = params.get(name);
        if (v == null || v.isEmpty()) {
            return fallback;
        }
        long n;
        try {
            n = Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw ApiError.badRequest("parameter '" + name + "' must be an integer, not '" + v + "'");
        }
        if (n < min || n > max) {
            throw ApiError.badRequest("parameter '" + name + "' must be in [" + min + ", " + max + "], not " + n);
        }
        return n;
    }

    /** The request's JSON object body. */
    JsonNode body() {
        return Json.object(request.body());
    }
}
