package io.kaas.security.sasl;

/**
 * The broker settings one mechanism on one listener is configured from, looked up as Kafka does: a
 * listener's own {@code listener.name.<listener>.<key>} wins over the broker-wide {@code <key>}.
 */
public interface MechanismSettings {

    /** The listener's name, e.g. {@code SASL_PLAINTEXT}. */
    String listenerName();

    /** The mechanism, e.g. {@code PLAIN}. */
    String mechanism();

    /**
     * The value of {@code <mechanism lower case>.<key>} only (e.g. {@code plain.sasl.jaas.config}, which
     * Kafka reads with the mechanism's prefix and no other way), or null.
     */
    String mechanismValue(String key);

    /** {@code <mechanism lower case>.<key>} if set, else {@code <key>}, else null. */
    String value(String key);

    /** The full name of {@code key} as the operator writes it for this listener and mechanism, for messages. */
    default String describe(String key) {
        return "listener.name." + listenerName().toLowerCase(java.util.Locale.ROOT) + "."
            + mechanism().toLowerCase(java.util.Locale.ROOT) + "." + key;
    }
}
