package io.kaas.broker.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Checks a dynamic {@code max.connections.per.ip.overrides} value as Kafka's broker does when it validates a
 * dynamic change, with Kafka's messages (which the Java admin shows): an entry without {@code host:} ({@code Error
 * parsing configuration property 'max.connections.per.ip.overrides': ...}), a count that is not an integer ({@code
 * For input string: "x"}), a host with characters no host name has ({@code ... contains invalid addresses : h});
 * then what kaas refuses besides, naming the entry: a negative count, a host that does not resolve.
 */
final class ConnectionOverrides {
    /** Kafka's {@code Utils.validHostPattern}. */
    private static final Pattern VALID_HOST = Pattern.compile("[0-9a-zA-Z\\-%._:]+");
    private static final String KEY = BrokerConfigDef.MAX_CONNECTIONS_PER_IP_OVERRIDES;

    private ConnectionOverrides() {
    }

    /** What is wrong with {@code raw}, or null. */
    static String problem(String raw) {
        if (raw == null || raw.isEmpty()) {
            return null;
        }
        Map<String, String> entries = new LinkedHashMap<>();
        for (String entry : raw.split("\\s*,\\s*")) {
            int colon = entry.lastIndexOf(':');
            if (colon < 0) {
                // Kafka's CSV map parsing fails on substring(0, -1): the JDK's message for that
                return "Error parsing configuration property '" + KEY + "': begin 0, end -1, length " + entry.length();
            }
            entries.put(entry.substring(0, colon).trim(), entry.substring(colon + 1).trim());
        }
        for (String count : entries.values()) {
            try {
                Integer.parseInt(count);
            } catch (NumberFormatException e) {
                return e.getMessage();
            }
        }
        List<String> invalid = new ArrayList<>();
        for (String host : entries.keySet()) {
            if (!VALID_HOST.matcher(host).matches()) {
                invalid.add(host);
            }
        }
        if (!invalid.isEmpty()) {
            return KEY + " contains invalid addresses : " + String.join(",", invalid);
        }
        for (Map.Entry<String, String> e : entries.entrySet()) {
            if (Integer.parseInt(e.getValue()) < 0) {
                return "Invalid value " + raw + " for configuration " + KEY + ": the count of " + e.getKey()
                        + " must be at least 0, got " + e.getValue();
            }
            try {
                InetAddress.getByName(e.getKey());
            } catch (UnknownHostException ex) {
                return "Invalid value " + raw + " for configuration " + KEY + ": unknown host '" + e.getKey() + "'";
            }
        }
        return null;
    }
}
