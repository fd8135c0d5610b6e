package io.kaas.broker.admin;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One answer of the admin endpoint: status, content type, body and any further response headers (Location,
 * Cache-Control, Content-Security-Policy, WWW-Authenticate...). Content-Type and Content-Length are set by the
 * server from {@link #contentType()} and {@link #body()}.
 */
public record Answer(int status, String contentType, byte[] body, Map<String, String> headers) {

    static final String PLAIN = "text/plain; charset=utf-8";
    /** The console API's content type. */
    public static final String JSON = "application/json; charset=utf-8";

    public Answer {
        Objects.requireNonNull(contentType, "contentType");
        Objects.requireNonNull(body, "body");
        headers = Map.copyOf(headers);
    }

    /** An answer without further headers. */
    public Answer(int status, String contentType, byte[] body) {
        this(status, contentType, body, Map.of());
    }

    /** A one-line plain-text answer. */
    public static Answer text(int status, String text) {
        return new Answer(status, PLAIN, (text + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** A JSON answer of already encoded {@code json}. */
    public static Answer json(int status, byte[] json) {
        return new Answer(status, JSON, json);
    }

    /** A 302 to {@code location}. */
    public static Answer redirect(String location) {
        return new Answer(302, PLAIN, ("see " + location + "\n").getBytes(StandardCharsets.UTF_8),
            Map.of("Location", location));
    }

    /** This answer with header {@code name} set to {@code value} as well. */
    public Answer withHeader(String name, String value) {
        Map<String, String> more = new LinkedHashMap<>(headers);
        more.put(name, value);
        return new Answer(status, contentType, body, more);
    }
}
