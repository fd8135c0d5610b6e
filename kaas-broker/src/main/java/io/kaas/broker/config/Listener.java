package io.kaas.broker.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One entry of {@code listeners} / {@code advertised.listeners}: {@code NAME://host:port}. An empty
 * host means "all interfaces" when binding and "this machine's canonical host name" when advertised.
 *
 * @param name the listener name, upper case (e.g. {@code PLAINTEXT})
 * @param host the host, possibly empty
 * @param port the port, 0 for an ephemeral port (tests)
 */
public record Listener(String name, String host, int port) {

    /** Parses a comma-separated listener list; {@code key} names the config in errors. */
    public static List<Listener> parseList(String key, String value) {
        List<Listener> out = new ArrayList<>();
        for (String part : value.split(",")) {
            String s = part.trim();
            if (!s.isEmpty()) {
                out.add(parse(key, s));
            }
        }
        if (out.isEmpty()) {
            throw new ConfigException(key, "expected at least one listener like PLAINTEXT://:9092");
        }
        return List.copyOf(out);
    }

    static Listener parse(String key, String s) {
        int sep = s.indexOf("://");
        int colon = s.lastIndexOf(':');
        if (sep <= 0 || colon <= sep + 2) {
            throw new ConfigException(key, "'" + s + "' is not of the form NAME://host:port");
        }
        String name = s.substring(0, sep).toUpperCase(Locale.ROOT);
        String host = s.substring(sep + 3, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(s.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new ConfigException(key, "'" + s + "' has no numeric port");
        }
        if (port < 0 || port > 65535) {
            throw new ConfigException(key, "'" + s + "' has a port outside 0-65535");
        }
        return new Listener(name, host, port);
    }

    @Override
    public String toString() {
        return name + "://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
