package io.kaas.broker.config;

import static io.kaas.broker.config.ConfigType.INT;
import static io.kaas.broker.config.ConfigType.LIST;
import static io.kaas.broker.config.ConfigType.LONG;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Kafka's SASL keys the broker reads, with Kafka's defaults: {@code sasl.enabled.mechanisms} (per listener),
 * {@code connections.max.reauth.ms} (per listener and mechanism, KIP-368) and
 * {@code connection.failed.authentication.delay.ms}. The mechanisms' own keys ({@code <mechanism>.sasl.jaas.config},
 * {@code sasl.oauthbearer.*}) are read by the mechanisms through {@link #value}.
 */
public final class SaslKeys {

    public static final String SASL_ENABLED_MECHANISMS = "sasl.enabled.mechanisms";
    public static final String CONNECTIONS_MAX_REAUTH_MS = "connections.max.reauth.ms";
    public static final String CONNECTION_FAILED_AUTHENTICATION_DELAY_MS = "connection.failed.authentication.delay.ms";
    public static final String SASL_SERVER_MAX_RECEIVE_SIZE = "sasl.server.max.receive.size";
    /** Kafka's default {@code sasl.server.max.receive.size}: 512 KiB. */
    public static final int DEFAULT_SASL_SERVER_MAX_RECEIVE_SIZE = 524288;

    private static final ConfigKey ENABLED = ConfigKey.of(SASL_ENABLED_MECHANISMS, LIST, "GSSAPI",
        "The SASL mechanisms a SASL listener offers (listener.name.<l>.sasl.enabled.mechanisms per listener). Kafka's "
            + "default GSSAPI is not supported by kaas: set PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 and/or OAUTHBEARER.");
    private static final ConfigKey MAX_REAUTH = ConfigKey.atLeast(CONNECTIONS_MAX_REAUTH_MS, LONG, 0, 0,
        "The longest a SASL session lasts before the client must re-authenticate on its connection (KIP-368); "
            + "0: no limit. listener.name.<l>.<mechanism>.connections.max.reauth.ms overrides it.");
    private static final ConfigKey FAILED_DELAY = ConfigKey.atLeast(CONNECTION_FAILED_AUTHENTICATION_DELAY_MS, INT, 100, 0,
        "How long a failed authentication waits before it is answered and the connection closed; 0: no delay.");

    private static final ConfigKey MAX_RECEIVE = ConfigKey.atLeast(SASL_SERVER_MAX_RECEIVE_SIZE, INT,
        DEFAULT_SASL_SERVER_MAX_RECEIVE_SIZE, 1, "The largest request a SASL listener reads before and during a client's "
            + "first authentication; a larger one closes the connection.");

    /** The keys, for BrokerConfigDef. */
    static final List<ConfigKey> KEYS = List.of(ENABLED, MAX_REAUTH, FAILED_DELAY, MAX_RECEIVE);

    private SaslKeys() {
    }

    /**
     * {@code listener}'s enabled mechanisms ({@code listener.name.<l>.sasl.enabled.mechanisms}, else the broker's,
     * else Kafka's default GSSAPI), in order, each once.
     */
    public static List<String> enabledMechanisms(ListenerConfig listener) {
        String raw = listener.value(SASL_ENABLED_MECHANISMS, ENABLED.defaultValue());
        List<String> out = new ArrayList<>();
        for (String part : raw.split(",")) {
            String m = part.trim();
            if (!m.isEmpty() && !out.contains(m)) {
                out.add(m);
            }
        }
        return List.copyOf(out);
    }

    /**
     * {@code connections.max.reauth.ms} of {@code mechanism} on {@code listener}: the listener's
     * {@code <mechanism lower>.connections.max.reauth.ms}, else its {@code connections.max.reauth.ms}, else the broker's;
     * 0 for none.
     *
     * @throws ConfigException if the value is not a non-negative 64-bit integer
     */
    public static long maxReauthMs(ListenerConfig listener, String mechanism) {
        for (String key : List.of(prefix(mechanism) + CONNECTIONS_MAX_REAUTH_MS, CONNECTIONS_MAX_REAUTH_MS)) {
            String raw = listener.value(key);
            if (raw != null) {
                String name = listener.ownValue(key) != null ? ListenerConfig.prefixOf(listener.name()) + key : key;
                return (Long) ConfigKey.atLeast(name, LONG, 0, 0, MAX_REAUTH.doc()).parse(raw);
            }
        }
        return 0;
    }

    /** {@code sasl.server.max.receive.size} of {@code listener} (its own, else the broker's, else 512 KiB). */
    public static int saslServerMaxReceiveSize(ListenerConfig listener) {
        String raw = listener.value(SASL_SERVER_MAX_RECEIVE_SIZE);
        if (raw == null) {
            return DEFAULT_SASL_SERVER_MAX_RECEIVE_SIZE;
        }
        String name = listener.ownValue(SASL_SERVER_MAX_RECEIVE_SIZE) != null
            ? ListenerConfig.prefixOf(listener.name()) + SASL_SERVER_MAX_RECEIVE_SIZE : SASL_SERVER_MAX_RECEIVE_SIZE;
        return ((Long) ConfigKey.atLeast(name, INT, DEFAULT_SASL_SERVER_MAX_RECEIVE_SIZE, 1, MAX_RECEIVE.doc()).parse(raw))
            .intValue();
    }

    /** {@code connection.failed.authentication.delay.ms}. */
    public static int failedAuthenticationDelayMs(BrokerConfig config) {
        String raw = config.originalValue(CONNECTION_FAILED_AUTHENTICATION_DELAY_MS);
        return ((Long) FAILED_DELAY.parse(raw != null ? raw : FAILED_DELAY.defaultValue())).intValue();
    }

    /**
     * A mechanism's setting on {@code listener} as Kafka looks it up: {@code <mechanism lower>.<key>} (the listener's,
     * else the broker's) when {@code mechanismPrefixedOnly}, else that or the plain {@code <key>}.
     */
    public static String value(ListenerConfig listener, String mechanism, String key, boolean mechanismPrefixedOnly) {
        String v = listener.value(prefix(mechanism) + key);
        return v != null || mechanismPrefixedOnly ? v : listener.value(key);
    }

    /** The mechanisms' own keys (read with a mechanism prefix, or as {@code sasl.oauthbearer.*}). */
    private static final java.util.Set<String> MECHANISM_KEYS = java.util.Set.of("sasl.jaas.config",
        "sasl.server.callback.handler.class", CONNECTIONS_MAX_REAUTH_MS);
    private static final java.util.Set<String> OAUTHBEARER_KEYS = java.util.Set.of("sasl.oauthbearer.jwks.endpoint.url",
        "sasl.oauthbearer.jwks.endpoint.refresh.ms", "sasl.oauthbearer.expected.audience",
        "sasl.oauthbearer.expected.issuer", "sasl.oauthbearer.sub.claim.name", "sasl.oauthbearer.scope.claim.name",
        "sasl.oauthbearer.clock.skew.seconds");
    private static final java.util.Set<String> MECHANISMS = java.util.Set.of("plain", "oauthbearer", "scram-sha-256",
        "scram-sha-512");

    /**
     * Whether the SASL code reads {@code key} (so it is neither unknown nor without effect): the keys above, per
     * listener too ({@code listener.name.<l>.}), and the mechanisms' own ({@code <mechanism>.sasl.jaas.config},
     * {@code sasl.oauthbearer.jwks.endpoint.url}, ...).
     */
    public static boolean isRead(String key) {
        String k = key;
        if (k.startsWith("listener.name.")) {
            int dot = k.indexOf('.', "listener.name.".length());
            if (dot < 0) {
                return false;
            }
            k = k.substring(dot + 1);
        }
        if (k.equals(SASL_ENABLED_MECHANISMS) || k.equals(CONNECTIONS_MAX_REAUTH_MS) || k.equals(SASL_SERVER_MAX_RECEIVE_SIZE)
                || OAUTHBEARER_KEYS.contains(k)) {
            return true;
        }
        int dot = k.indexOf('.');
        if (dot > 0 && MECHANISMS.contains(k.substring(0, dot))) {
            String rest = k.substring(dot + 1);
            return MECHANISM_KEYS.contains(rest) || OAUTHBEARER_KEYS.contains(rest);
        }
        return false;
    }

    private static String prefix(String mechanism) {
        return mechanism.toLowerCase(Locale.ROOT) + ".";
    }
}
