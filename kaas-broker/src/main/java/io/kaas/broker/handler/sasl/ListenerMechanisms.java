package io.kaas.broker.handler.sasl;

import io.kaas.security.sasl.SaslMechanismFactory;
import java.util.List;
import java.util.Map;

/**
 * The SASL mechanisms of one listener: the enabled names in {@code sasl.enabled.mechanisms} order (what
 * SaslHandshake answers), each one's factory and its {@code connections.max.reauth.ms} (0: none).
 *
 * @param listener    the listener's name
 * @param enabled     the enabled mechanisms, in order
 * @param factories   each enabled mechanism's server factory
 * @param maxReauthMs each enabled mechanism's longest session, 0 for no limit
 */
public record ListenerMechanisms(String listener, List<String> enabled, Map<String, SaslMechanismFactory> factories,
                                 Map<String, Long> maxReauthMs) {

    public ListenerMechanisms {
        enabled = List.copyOf(enabled);
        factories = Map.copyOf(factories);
        maxReauthMs = Map.copyOf(maxReauthMs);
    }

    /** The factory of {@code mechanism}, or null when it is not enabled here. */
    public SaslMechanismFactory factory(String mechanism) {
        return mechanism == null ? null : factories.get(mechanism);
    }

    /** {@code connections.max.reauth.ms} of {@code mechanism}; 0 for none. */
    public long maxReauthMs(String mechanism) {
        return maxReauthMs.getOrDefault(mechanism, 0L);
    }
}
