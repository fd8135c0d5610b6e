package io.kaas.api.cluster;

import java.util.Objects;

/**
 * Names one SCRAM credential: a user and a mechanism.
 *
 * @param user      the user name (the principal's name without {@code User:}), never empty
 * @param mechanism the SASL mechanism name, {@code SCRAM-SHA-256} or {@code SCRAM-SHA-512}, never empty
 */
public record ScramCredentialRef(String user, String mechanism) {
    public ScramCredentialRef {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(mechanism, "mechanism");
        if (user.isEmpty()) {
            throw new IllegalArgumentException("a SCRAM credential needs a user name");
        }
        if (mechanism.isEmpty()) {
            throw new IllegalArgumentException("a SCRAM credential needs a mechanism");
        }
    }
}
