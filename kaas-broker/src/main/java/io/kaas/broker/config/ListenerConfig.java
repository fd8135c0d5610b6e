package io.kaas.broker.config;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One broker listener as Kafka configures it: where it binds, its security protocol (from
 * {@code listener.security.protocol.map}) and its settings, where {@code listener.name.<name>.<key>}
 * (the listener's name in lower case, as Kafka writes it) overrides the broker-wide {@code <key>}.
 * Immutable.
 */
public final class ListenerConfig {

    private final Listener bind;
    private final SecurityProtocol securityProtocol;
    private final Map<String, String> originals;
    private final String prefix;

    ListenerConfig(Listener bind, SecurityProtocol securityProtocol, Map<String, String> originals) {
        this.bind = Objects.requireNonNull(bind, "bind");
        this.securityProtocol = Objects.requireNonNull(securityProtocol, "securityProtocol");
        this.originals = Map.copyOf(originals);
        this.prefix = prefixOf(bind.name());
    }

    /** Kafka's prefix of the per-listener overrides of listener {@code name}: {@code listener.name.<name>.}. */
    public static String prefixOf(String name) {
        return "listener.name." + name.toLowerCase(Locale.ROOT) + ".";
    }

    /** The listener's name, upper case (e.g. {@code CLIENT}). */
    public String name() {
        return bind.name();
    }

    /** Where it binds ({@code listeners} entry). */
    public Listener bind() {
        return bind;
    }

    public SecurityProtocol securityProtocol() {
        return securityProtocol;
    }

    /** This listener's {@code listener.name.<name>.<key>} if set, else the broker-wide {@code key}, else null. */
    public String value(String key) {
        String own = originals.get(prefix + key);
        return own != null ? own : originals.get(key);
    }

    /** {@link #value(String)}, or {@code fallback} when neither is set. */
    public String value(String key, String fallback) {
        String v = value(key);
        return v != null ? v : fallback;
    }

    /** Only this listener's own {@code listener.name.<name>.<key>}, without the broker-wide fallback; or null. */
    public String ownValue(String key) {
        return originals.get(prefix + key);
    }

    @Override
    public String toString() {
        return bind + " (" + securityProtocol + ")";
    }
}
