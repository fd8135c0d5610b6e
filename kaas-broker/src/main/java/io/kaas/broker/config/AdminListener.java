package io.kaas.broker.config;

import java.util.Locale;
import java.util.Optional;

/**
 * {@code admin.listener}: where the admin HTTP endpoint (/metrics, /health, /ready) listens, as
 * {@code http://HOST:PORT} (port 0: an ephemeral one), or {@code none} for no endpoint.
 *
 * @param host the address to bind (an IPv6 literal without its brackets)
 * @param port 0 to 65535
 */
public record AdminListener(String host, int port) {

    public static final String KEY = "admin.listener";
    public static final String DEFAULT = "http://127.0.0.1:9644";

    /**
     * Parses {@code value}: empty when it is {@code none}.
     *
     * @throws ConfigException naming the key and the value when it is neither {@code none} nor {@code http://HOST:PORT}
     */
    public static Optional<AdminListener> parse(String value) {
        String v = value == null ? "" : value.trim();
        if (v.equalsIgnoreCase("none")) {
            return Optional.empty();
        }
        String lower = v.toLowerCase(Locale.ROOT);
        if (!lower.startsWith("http://")) {
            throw invalid(v, "expected http://HOST:PORT or none");
        }
        String rest = v.substring("http://".length());
        if (rest.endsWith("/")) {
            rest = rest.substring(0, rest.length() - 1);
        }
        int colon = rest.lastIndexOf(':');
        if (colon <= 0 || colon == rest.length() - 1) {
            throw invalid(v, "expected http://HOST:PORT or none");
        }
        String host = rest.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (host.isEmpty() || host.contains("/") || host.contains(" ")) {
            throw invalid(v, "bad host '" + host + "'");
        }
        int port;
        try {
            port = Integer.parseInt(rest.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw invalid(v, "bad port '" + rest.substring(colon + 1) + "'");
        }
        if (port < 0 || port > 65535) {
            throw invalid(v, "port " + port + " is outside 0-65535");
        }
        return Optional.of(new AdminListener(host, port));
    }

    private static ConfigException invalid(String value, String why) {
        return new ConfigException(KEY, "'" + value + "': " + why);
    }
}
