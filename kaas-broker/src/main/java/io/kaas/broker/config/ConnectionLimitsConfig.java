package io.kaas.broker.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The connection and request-queue limits, with Kafka's keys and semantics: {@code max.connections} (broker-wide,
 * and per listener through {@code listener.name.<listener>.max.connections}, which falls back to the broker-wide
 * value as in Kafka), {@code max.connections.per.ip} with {@code max.connections.per.ip.overrides}
 * ({@code host-or-ip:count,...}), {@code queued.max.requests} and {@code queued.max.request.bytes}. Immutable;
 * validated when parsed.
 *
 * @param maxConnections         broker-wide connections at once; at the limit new ones wait to be served
 * @param listenerMaxConnections per listener name (upper case): its own limit
 * @param maxConnectionsPerIp    connections at once from one address unless overridden; more are closed at once
 * @param perIpOverrides         host name or address to its own per-address limit, as written (resolved by the
 *                               network layer at start)
 * @param queuedMaxRequests      requests read and not yet handed to a handler, broker-wide, before reading stops
 * @param queuedMaxRequestBytes  {@code queued.max.request.bytes}: bytes of request frames held (read and not yet
 *                               answered), broker-wide, before reading stops; zero or negative: no bound
 */
public record ConnectionLimitsConfig(int maxConnections, Map<String, Integer> listenerMaxConnections,
                                     int maxConnectionsPerIp, Map<String, Integer> perIpOverrides, int queuedMaxRequests,
                                     long queuedMaxRequestBytes) {

    /** Kafka's {@code Utils.validHostPattern}: the characters a host name or address may hold. */
    private static final Pattern VALID_HOST = Pattern.compile("[0-9a-zA-Z\\-%._:]+");

    public ConnectionLimitsConfig {
        listenerMaxConnections = Map.copyOf(listenerMaxConnections);
        perIpOverrides = Map.copyOf(perIpOverrides);
    }

    /** Limits without a bound on queued request bytes (Kafka's default). */
    public ConnectionLimitsConfig(int maxConnections, Map<String, Integer> listenerMaxConnections, int maxConnectionsPerIp,
                                  Map<String, Integer> perIpOverrides, int queuedMaxRequests) {
        this(maxConnections, listenerMaxConnections, maxConnectionsPerIp, perIpOverrides, queuedMaxRequests, -1);
    }

    /** No limit at all but Kafka's default {@code queued.max.requests} (500). */
    public static ConnectionLimitsConfig unlimited() {
        return new ConnectionLimitsConfig(Integer.MAX_VALUE, Map.of(), Integer.MAX_VALUE, Map.of(), 500, -1);
    }

    /** The connections listener {@code name} may hold at once. */
    public int maxConnections(String listenerName) {
        return listenerMaxConnections.getOrDefault(listenerName, maxConnections);
    }

    /**
     * Validates and builds the limits from the parsed broker-wide values and each listener's own
     * {@code listener.name.<listener>.max.connections}.
     *
     * @throws ConfigException naming the key whose value is malformed
     */
    static ConnectionLimitsConfig parse(int maxConnections, int maxConnectionsPerIp, String overrides,
                                        int queuedMaxRequests, long queuedMaxRequestBytes, List<ListenerConfig> listeners) {
        Map<String, Integer> perIp = parseOverrides(overrides == null ? "" : overrides);
        if (maxConnectionsPerIp == 0 && perIp.isEmpty()) {
            throw new ConfigException(BrokerConfigDef.MAX_CONNECTIONS_PER_IP, "can be set to zero only if "
                + BrokerConfigDef.MAX_CONNECTIONS_PER_IP_OVERRIDES + " property is set");
        }
        Map<String, Integer> perListener = new LinkedHashMap<>();
        for (ListenerConfig l : listeners) {
            String own = l.ownValue(BrokerConfigDef.MAX_CONNECTIONS);
            if (own != null) {
                perListener.put(l.name(), nonNegativeInt(ListenerConfig.prefixOf(l.name()) + BrokerConfigDef.MAX_CONNECTIONS, own));
            }
        }
        return new ConnectionLimitsConfig(maxConnections, perListener, maxConnectionsPerIp, perIp, queuedMaxRequests,
            queuedMaxRequestBytes);
    }

    /** Kafka's CSV map: entries separated by commas, each split at its last ':' (so IPv6 addresses work). */
    private static Map<String, Integer> parseOverrides(String raw) {
        String key = BrokerConfigDef.MAX_CONNECTIONS_PER_IP_OVERRIDES;
        Map<String, Integer> out = new LinkedHashMap<>();
        if (raw.isBlank()) {
            return out;
        }
        for (String entry : raw.split(",")) {
            String e = entry.trim();
            int colon = e.lastIndexOf(':');
            if (colon <= 0) {
                throw new ConfigException(key, "'" + e + "' is not host:count");
            }
            String host = e.substring(0, colon).trim();
            if (!VALID_HOST.matcher(host).matches()) {
                throw new ConfigException(key, "contains an invalid address: '" + host + "'");
            }
            out.put(host, nonNegativeInt(key, e.substring(colon + 1).trim()));
        }
        return out;
    }

    private static int nonNegativeInt(String key, String raw) {
        int value;
        try {
            value = Integer.parseInt(raw.trim());
        } catch (NumberFormatException e) {
            throw new ConfigException(key, "expected a 32-bit integer, got '" + raw + "'");
        }
        if (value < 0) {
            throw new ConfigException(key, "must be at least 0, got " + value);
        }
        return value;
    }
}
