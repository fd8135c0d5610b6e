package io.kaas.broker.handler.sasl;

import io.kaas.broker.config.ConfigException;
import io.kaas.broker.config.ListenerConfig;
import io.kaas.broker.config.SaslKeys;
import io.kaas.security.oauth.OAuthBearerMechanism;
import io.kaas.broker.config.ListenerMechanismSettings;
import io.kaas.security.sasl.MechanismSettings;
import io.kaas.security.sasl.PlainMechanism;
import io.kaas.security.sasl.SaslMechanismFactory;
import io.kaas.security.scram.ScramCredentialLookup;
import io.kaas.security.scram.ScramSaslServerFactory;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place the SASL mechanisms of every SASL listener are built, from {@code sasl.enabled.mechanisms} and
 * each mechanism's {@code listener.name.<l>.<mechanism>.*} keys: PLAIN, OAUTHBEARER, and SCRAM-SHA-256/512
 * (see {@link #factory}). A listener that does not use SASL has none. Immutable.
 */
public final class SaslMechanisms implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SaslMechanisms.class);

    /** What kaas can serve, for messages. */
    static final String SUPPORTED = "PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER";

    private static final String JAAS_WITHOUT_MECHANISM = "sasl.jaas.config";

    private final Map<String, ListenerMechanisms> byListener;

    private SaslMechanisms(Map<String, ListenerMechanisms> byListener) {
        this.byListener = Map.copyOf(byListener);
    }

    /** No SASL listener. */
    public static SaslMechanisms none() {
        return new SaslMechanisms(Map.of());
    }

    /**
     * The mechanisms of every SASL listener of {@code listeners}; SCRAM servers read credentials through
     * {@code scramCredentials}.
     *
     * @throws ConfigException naming the key when a listener enables no mechanism, an unsupported one (GSSAPI,
     *                         Kafka's default), or a mechanism's settings are missing or malformed
     */
    public static SaslMechanisms of(List<ListenerConfig> listeners, ScramCredentialLookup scramCredentials) {
        Map<String, ListenerMechanisms> out = new HashMap<>();
        try {
            for (ListenerConfig l : listeners) {
                if (l.securityProtocol().usesSasl()) {
                    out.put(l.name(), forListener(l, scramCredentials));
                }
            }
        } catch (RuntimeException e) {
            out.values().forEach(SaslMechanisms::close);
            throw e;
        }
        return new SaslMechanisms(out);
    }

    /** Releases what the mechanisms hold (the JWKS refresh of OAUTHBEARER). */
    @Override
    public void close() {
        byListener.values().forEach(SaslMechanisms::close);
    }

    private static void close(ListenerMechanisms listener) {
        for (SaslMechanismFactory f : listener.factories().values()) {
            if (f instanceof AutoCloseable c) {
                try {
                    c.close();
                } catch (Exception e) {
                    LOG.atWarn().setCause(e).log("cannot close SASL mechanism {} of listener {}", f.mechanism(),
                        listener.listener());
                }
            }
        }
    }

    /** The mechanisms of listener {@code name}, or null when it does not use SASL. */
    public ListenerMechanisms listener(String name) {
        return byListener.get(name);
    }

    private static ListenerMechanisms forListener(ListenerConfig listener, ScramCredentialLookup scramCredentials) {
        String enabledKey = (listener.ownValue(SaslKeys.SASL_ENABLED_MECHANISMS) != null
            ? ListenerConfig.prefixOf(listener.name()) : "") + SaslKeys.SASL_ENABLED_MECHANISMS;
        List<String> enabled = SaslKeys.enabledMechanisms(listener);
        if (enabled.isEmpty()) {
            throw new ConfigException(enabledKey, "listener " + listener.name() + " uses SASL but enables no mechanism; "
                + "set it to some of " + SUPPORTED);
        }
        Map<String, SaslMechanismFactory> factories = new LinkedHashMap<>();
        Map<String, Long> maxReauth = new HashMap<>();
        try {
            for (String mechanism : enabled) {
                factories.put(mechanism, factory(mechanism, new ListenerMechanismSettings(listener, mechanism), enabledKey,
                    scramCredentials));
                maxReauth.put(mechanism, SaslKeys.maxReauthMs(listener, mechanism));
            }
        } catch (RuntimeException e) {
            close(new ListenerMechanisms(listener.name(), List.copyOf(factories.keySet()), factories, Map.of()));
            throw e;
        }
        if (listener.value(JAAS_WITHOUT_MECHANISM) != null) {
            LOG.atWarn().addKeyValue("listener", listener.name()).log("Server config {} should be prefixed with SASL "
                + "mechanism name, ignoring config (listener {})", JAAS_WITHOUT_MECHANISM, listener.name());
        }
        LOG.atInfo().addKeyValue("listener", listener.name()).addKeyValue("mechanisms", enabled)
            .log("SASL listener {} offers {}", listener.name(), String.join(", ", enabled));
        return new ListenerMechanisms(listener.name(), enabled, factories, maxReauth);
    }

    /** The factory of one mechanism: add a mechanism here, one case. */
    private static SaslMechanismFactory factory(String mechanism, MechanismSettings settings, String enabledKey,
                                                ScramCredentialLookup scramCredentials) {
        try {
            return switch (mechanism) {
                case "PLAIN" -> PlainMechanism.create(settings);
                case "OAUTHBEARER" -> OAuthBearerMechanism.create(settings);
                case "SCRAM-SHA-256", "SCRAM-SHA-512" -> ScramSaslServerFactory.forName(mechanism, scramCredentials)
                    .orElseThrow();
                case "GSSAPI" -> throw new ConfigException(enabledKey, "GSSAPI (Kerberos, Kafka's default) is not "
                    + "supported by kaas; set " + SaslKeys.SASL_ENABLED_MECHANISMS + " to some of " + SUPPORTED);
                default -> throw new ConfigException(enabledKey, "unknown or unsupported SASL mechanism '" + mechanism
                    + "'; kaas supports " + SUPPORTED);
            };
        } catch (IllegalArgumentException e) {
            throw new ConfigException(null, e.getMessage());
        }
    }
}
