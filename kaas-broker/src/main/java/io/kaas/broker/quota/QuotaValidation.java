package io.kaas.broker.quota;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.Set;

/**
 * Kafka's checks of one AlterClientQuotas entry ({@code ClientQuotaControlManager}): the entity's types and names,
 * their combination, and each quota key and value, with Kafka's messages (all INVALID_REQUEST).
 */
public final class QuotaValidation {
    /** Kafka's quota keys for user and client-id entities, and whether each is integral (a LONG). */
    private static final Map<String, Boolean> USER_CLIENT_KEYS = Map.of(
            QuotaType.PRODUCE.key(), true, QuotaType.FETCH.key(), true,
            QuotaType.REQUEST.key(), false, QuotaType.CONTROLLER_MUTATION.key(), false);
    /** Kafka's quota key for ip entities (an INT). */
    static final String CONNECTION_CREATION_RATE = "connection_creation_rate";
    private static final Set<String> TYPES = Set.of("user", "client-id", "ip");

    private QuotaValidation() {
    }

    /**
     * Kafka's message for an entity it refuses, or null. {@code entity} maps type to name, null naming the default.
     */
    public static String invalidEntity(Map<String, String> entity) {
        if (entity.isEmpty()) {
            return "Invalid empty client quota entity";
        }
        for (Map.Entry<String, String> e : entity.entrySet()) {
            if (!TYPES.contains(e.getKey())) {
                return "Unhandled client quota entity type: " + e.getKey();
            }
            if (e.getValue() != null && e.getValue().isEmpty()) {
                return "Empty " + e.getKey() + " not supported";
            }
        }
        if (entity.containsKey("ip")) {
            if (entity.containsKey("user") || entity.containsKey("client-id")) {
                return "Invalid quota entity combination, IP entity shouldnot be combined with User or ClientId";
            }
            String ip = entity.get("ip");
            if (ip != null && !resolvable(ip)) {
                return ip + " is not a valid IP or resolvable host.";
            }
        }
        return null;
    }

    /** Kafka's message for a key and value it refuses for {@code entity} (already valid), or null. */
    public static String invalidValue(Map<String, String> entity, String key, double value) {
        boolean ip = entity.containsKey("ip");
        Boolean integral = ip ? (CONNECTION_CREATION_RATE.equals(key) ? Boolean.TRUE : null) : USER_CLIENT_KEYS.get(key);
        if (integral == null) {
            return "Invalid configuration key " + key;
        }
        if (value <= 0.0) {
            return "Quota " + key + " must be greater than 0";
        }
        if (!integral) {
            return null;
        }
        if (ip ? value > Integer.MAX_VALUE : value > Long.MAX_VALUE) {
            return "Proposed value for " + key + " is too large for " + (ip ? "an INT." : "a LONG.");
        }
        if (Math.abs(value % 1.0) > 1e-6) {
            return key + " cannot be a fractional value.";
        }
        return null;
    }

    private static boolean resolvable(String host) {
        try {
            InetAddress.getByName(host);
            return true;
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
