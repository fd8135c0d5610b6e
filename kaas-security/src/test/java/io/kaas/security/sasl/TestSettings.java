package io.kaas.security.sasl;

import java.util.Locale;
import java.util.Map;

/** Settings of one mechanism on one listener from a map of keys as the mechanism sees them (prefix-free). */
public record TestSettings(String listenerName, String mechanism, Map<String, String> values)
        implements MechanismSettings {

    public static TestSettings of(String listener, String mechanism, Map<String, String> values) {
        return new TestSettings(listener, mechanism, values);
    }

    @Override
    public String mechanismValue(String key) {
        return values.get(mechanism.toLowerCase(Locale.ROOT) + "." + key);
    }

    @Override
    public String value(String key) {
        String own = mechanismValue(key);
        return own != null ? own : values.get(key);
    }
}
