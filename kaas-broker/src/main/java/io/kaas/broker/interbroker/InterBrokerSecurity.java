package io.kaas.broker.interbroker;

import io.kaas.broker.config.BrokerConfig;
import io.kaas.broker.config.ConfigException;
import io.kaas.broker.config.ListenerConfig;
import io.kaas.broker.config.SaslKeys;
import io.kaas.broker.config.SecurityProtocol;
import io.kaas.security.sasl.JaasConfig;
import io.kaas.security.sasl.JaasModule;
import io.kaas.broker.config.ListenerMechanismSettings;
import io.kaas.security.scram.ScramMechanism;
import io.kaas.security.scram.ScramSaslClient;
import io.kaas.security.tls.ClientSslContextFactory;
import io.kaas.security.tls.SslKeys;
import io.kaas.security.tls.TlsConfigException;
import io.netty.handler.ssl.SslContext;
import java.util.HashMap;
import java.util.Map;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslClient;
import javax.security.sasl.SaslException;

/**
 * How this broker connects to the other brokers, as Kafka's inter-broker client does: over
 * {@code inter.broker.listener.name} with that listener's security protocol; for TLS the listener's {@code ssl.*}
 * settings (its trust store decides which brokers are trusted, its key store is offered when asked for a
 * certificate); for SASL the mechanism {@code sasl.mechanism.inter.broker.protocol} (PLAIN, SCRAM-SHA-256 or
 * SCRAM-SHA-512) with the {@code username} and {@code password} options of that mechanism's login module in the
 * listener's JAAS config ({@code listener.name.<l>.<mechanism>.sasl.jaas.config}, else the JAAS file's
 * {@code KafkaServer} section). PLAIN's client is the JDK's; SCRAM's is kaas-security's {@link ScramSaslClient}.
 * Immutable; {@link #toString()} shows no secret.
 */
public final class InterBrokerSecurity {
    /** Kafka's key of the inter-broker SASL mechanism; Kafka's default is GSSAPI. */
    public static final String SASL_MECHANISM_INTER_BROKER_PROTOCOL = "sasl.mechanism.inter.broker.protocol";
    static final String PLAIN_LOGIN_MODULE = "org.apache.kafka.common.security.plain.PlainLoginModule";
    static final String SCRAM_LOGIN_MODULE = "org.apache.kafka.common.security.scram.ScramLoginModule";

    private final String listener;
    private final SecurityProtocol protocol;
    private final SslContext tls;
    private final String mechanism;
    private final String username;
    private final String password;

    private InterBrokerSecurity(String listener, SecurityProtocol protocol, SslContext tls, String mechanism,
                                String username, String password) {
        this.listener = listener;
        this.protocol = protocol;
        this.tls = tls;
        this.mechanism = mechanism;
        this.username = username;
        this.password = password;
    }

    /** Plain TCP to {@code listener}: no TLS, no SASL. */
    public static InterBrokerSecurity plaintext(String listener) {
        return new InterBrokerSecurity(listener, SecurityProtocol.PLAINTEXT, null, null, null, null);
    }

    /**
     * The settings of {@code config}'s inter-broker listener.
     *
     * @throws ConfigException naming the key when TLS or SASL settings cannot be used
     */
    public static InterBrokerSecurity of(BrokerConfig config) {
        String name = config.interBrokerListenerName();
        ListenerConfig listener = config.listenerConfigs().stream().filter(l -> l.name().equals(name)).findFirst()
            .orElseThrow(() -> new ConfigException("inter.broker.listener.name", "no listener named " + name));
        SecurityProtocol protocol = listener.securityProtocol();
        SslContext tls = protocol.usesTls() ? tls(listener) : null;
        if (!protocol.usesSasl()) {
            return new InterBrokerSecurity(name, protocol, tls, null, null, null);
        }
        String mechanism = config.originalValue(SASL_MECHANISM_INTER_BROKER_PROTOCOL);
        mechanism = mechanism == null || mechanism.isBlank() ? "GSSAPI" : mechanism.trim();
        String loginModule = switch (mechanism) {
            case "PLAIN" -> PLAIN_LOGIN_MODULE;
            case "SCRAM-SHA-256", "SCRAM-SHA-512" -> SCRAM_LOGIN_MODULE;
            default -> throw new ConfigException(SASL_MECHANISM_INTER_BROKER_PROTOCOL, "inter-broker listener " + name
                + " uses SASL with mechanism " + mechanism + ", which kaas cannot use between brokers; set it to "
                + "PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512");
        };
        if (!SaslKeys.enabledMechanisms(listener).contains(mechanism)) {
            throw new ConfigException(SASL_MECHANISM_INTER_BROKER_PROTOCOL, SASL_MECHANISM_INTER_BROKER_PROTOCOL
                + " must be included in " + SaslKeys.SASL_ENABLED_MECHANISMS + " when SASL is used for inter-broker "
                + "communication");
        }
        ListenerMechanismSettings settings = new ListenerMechanismSettings(listener, mechanism);
        JaasModule module;
        try {
            module = JaasConfig.of(settings, loginModule);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(settings.describe(JaasConfig.KEY), e.getMessage());
        }
        String user = module.option("username");
        String pass = module.option("password");
        if (user == null || pass == null) {
            throw new ConfigException(settings.describe(JaasConfig.KEY), "the " + loginModule + " entry of inter-broker "
                + "listener " + name + " needs the options username and password (the identity this broker "
                + "authenticates with to the others)");
        }
        return new InterBrokerSecurity(name, protocol, tls, mechanism, user, pass);
    }

    private static SslContext tls(ListenerConfig listener) {
        Map<String, String> ssl = new HashMap<>();
        for (String key : SslKeys.ALL) {
            String v = listener.value(key);
            if (v != null) {
                ssl.put(key, v);
            }
        }
        String identification = listener.value(ClientSslContextFactory.ENDPOINT_IDENTIFICATION_ALGORITHM);
        if (identification != null) {
            ssl.put(ClientSslContextFactory.ENDPOINT_IDENTIFICATION_ALGORITHM, identification);
        }
        try {
            return ClientSslContextFactory.build(ssl);
        } catch (TlsConfigException e) {
            String key = listener.ownValue(e.key()) != null ? ListenerConfig.prefixOf(listener.name()) + e.key() : e.key();
            throw new ConfigException(key, "inter-broker listener " + listener.name() + ": " + e.getMessage());
        }
    }

    public String listener() {
        return listener;
    }

    public SecurityProtocol protocol() {
        return protocol;
    }

    /** The client TLS context, or null without TLS. */
    SslContext tls() {
        return tls;
    }

    /** The SASL mechanism, or null without SASL. */
    public String mechanism() {
        return mechanism;
    }

    /** A new SASL client of the mechanism for a connection to {@code host}. */
    SaslClient newSaslClient(String host) throws SaslException {
        if (mechanism.equals("PLAIN")) {
            SaslClient client = Sasl.createSaslClient(new String[] {"PLAIN"}, null, "kafka", host, Map.of(),
                callbacks -> {
                    for (var c : callbacks) {
                        if (c instanceof NameCallback n) {
                            n.setName(username);
                        } else if (c instanceof PasswordCallback p) {
                            p.setPassword(password.toCharArray());
                        } else {
                            throw new UnsupportedCallbackException(c);
                        }
                    }
                });
            if (client == null) {
                throw new SaslException("the JDK offers no PLAIN SASL client");
            }
            return client;
        }
        return new ScramSaslClient(mechanism.equals("SCRAM-SHA-256") ? ScramMechanism.SCRAM_SHA_256
            : ScramMechanism.SCRAM_SHA_512, username, password);
    }

    @Override
    public String toString() {
        return listener + " (" + protocol + (mechanism != null ? ", " + mechanism + " as " + username : "") + ")";
    }
}
