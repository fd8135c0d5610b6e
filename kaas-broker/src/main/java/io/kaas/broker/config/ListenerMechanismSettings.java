package io.kaas.broker.config;

import io.kaas.security.sasl.MechanismSettings;
import java.util.Locale;

/**
 * A SASL mechanism's settings on one listener, looked up as Kafka does ({@link SaslKeys#value}): the server side of a
 * SASL listener and the inter-broker client's side read the same keys.
 */
public record ListenerMechanismSettings(ListenerConfig listener, String mechanism) implements MechanismSettings {
    @Override
    public String listenerName() {
        return listener.name();
    }

    @Override
    public String mechanismValue(String key) {
        return SaslKeys.value(listener, mechanism, key, true);
    }

    @Override
    public String value(String key) {
        return SaslKeys.value(listener, mechanism, key, false);
    }

    @Override
    public String toString() {
        return mechanism.toLowerCase(Locale.ROOT) + " on " + listener.name();
    }
}
