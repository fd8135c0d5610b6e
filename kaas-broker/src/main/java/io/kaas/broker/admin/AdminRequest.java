package io.kaas.broker.admin;

import java.net.InetSocketAddress;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One request to the admin endpoint, read in full (the body is at most {@link AdminServer#MAX_REQUEST_BYTES}).
 *
 * @param method  the HTTP method, upper case
 * @param path    the path, without the query, not decoded
 * @param query   the raw query string after '?', empty for none
 * @param headers the request headers, names in lower case (a repeated header keeps its first value)
 * @param body    the request body, empty for none
 * @param remote  the client's address, possibly null
 */
public record AdminRequest(String method, String path, String query, Map<String, String> headers, byte[] body,
                           InetSocketAddress remote) {

    public AdminRequest {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        query = query == null ? "" : query;
        headers = Map.copyOf(headers);
        body = body == null ? new byte[0] : body;
    }

    /** A request of {@code uri} (path and query) without headers or body. */
    public static AdminRequest of(String method, String uri) {
        String u = uri == null ? "" : uri;
        int q = u.indexOf('?');
        return new AdminRequest(method, q < 0 ? u : u.substring(0, q), q < 0 ? "" : u.substring(q + 1), Map.of(),
            new byte[0], null);
    }

    /** The value of header {@code name} (any case), or null. */
    public String header(String name) {
        return headers.get(name.toLowerCase(Locale.ROOT));
    }
}
