package io.kaas.security.sasl;

import javax.security.sasl.SaslServer;

/**
 * SASL/PLAIN on one listener: users from {@code listener.name.<listener>.plain.sasl.jaas.config}, whose one
 * login module must be Kafka's {@code PlainLoginModule} with {@code user_<NAME>="<password>"} options.
 */
public final class PlainMechanism implements SaslMechanismFactory {

    /** Kafka's login module for PLAIN, the one a broker's PLAIN JAAS config names. */
    public static final String LOGIN_MODULE = "org.apache.kafka.common.security.plain.PlainLoginModule";

    private final PlainUsers users;

    private PlainMechanism(PlainUsers users) {
        this.users = users;
    }

    /**
     * PLAIN from {@code settings}' {@code plain.sasl.jaas.config}.
     *
     * @throws IllegalArgumentException naming the key when it is missing, malformed, names another login
     *                                  module or holds no user
     */
    public static PlainMechanism create(MechanismSettings settings) {
        String key = settings.describe(JaasConfig.KEY);
        JaasModule module = JaasConfig.of(settings, LOGIN_MODULE);
        if (!module.loginModule().equals(LOGIN_MODULE)) {
            throw new IllegalArgumentException(key + ": PLAIN needs the login module " + LOGIN_MODULE + ", not "
                + module.loginModule());
        }
        PlainUsers users = PlainUsers.of(module);
        if (users.isEmpty()) {
            throw new IllegalArgumentException(key + ": no user_<NAME>=\"<password>\" option, so no client could log in");
        }
        return new PlainMechanism(users);
    }

    @Override
    public String mechanism() {
        return PlainSaslServer.MECHANISM;
    }

    @Override
    public SaslServer newServer() {
        return new PlainSaslServer(users);
    }

    /** The users' names (never their passwords). */
    public java.util.Set<String> userNames() {
        return users.names();
    }
}
