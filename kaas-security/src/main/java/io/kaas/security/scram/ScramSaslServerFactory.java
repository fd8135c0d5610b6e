package io.kaas.security.scram;

import io.kaas.security.sasl.SaslMechanismFactory;
import java.security.SecureRandom;
import java.util.Objects;
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

    @Override
    public String mechanism() {
        return mechanism.mechanismName();
    }

    @Override
    public SaslServer newServer() {
        return new ScramSaslServer(mechanism, lookup, unknownUserSecret);
    }
}
