package io.kaas.security.scram;

import io.kaas.security.sasl.SaslMechanismFactory;
import java.security.SecureRandom;
import java.util.Objects;
import java.util.Optional;
import javax.security.sasl.SaslServer;

/** SCRAM-SHA-256 or SCRAM-SHA-512 for a listener, reading credentials through a {@link ScramCredentialLookup}. */
public final class ScramSaslServerFactory implements SaslMechanismFactory {
    private final ScramMechanism mechanism;
    private final ScramCredentialLookup lookup;
    private final byte[] unknownUserSecret = new byte[32];

    public ScramSaslServerFactory(ScramMechanism mechanism, ScramCredentialLookup lookup) {
        this.mechanism = Objects.requireNonNull(mechanism, "mechanism");
        this.lookup = Objects.requireNonNull(lookup, "lookup");
        new SecureRandom().nextBytes(unknownUserSecret);
    }

    /**
     * The factory of a mechanism named in {@code sasl.enabled.mechanisms}, or empty if {@code mechanismName}
     * is not {@code SCRAM-SHA-256} or {@code SCRAM-SHA-512}: what the broker's factory assembly asks per name.
     */
    public static Optional<SaslMechanismFactory> forName(String mechanismName, ScramCredentialLookup lookup) {
        return ScramMechanism.forName(mechanismName).map(m -> new ScramSaslServerFactory(m, lookup));
    }

    @Override
    public String mechanism() {
        return mechanism.mechanismName();
    }

    @Override
    public SaslServer newServer() {
        return new ScramSaslServer(mechanism, lookup, unknownUserSecret);
    }
}
