package io.kaas.security.scram;

import java.util.Optional;

/**
 * Where the SCRAM server reads a user's credential. The broker backs it with the cluster-state store;
 * called on a request-handler thread, so it may block briefly.
 */
@FunctionalInterface
public interface ScramCredentialLookup {

    /** The credential of {@code user} for {@code mechanism}, empty if the user has none. */
    Optional<ScramCredential> credential(String user, ScramMechanism mechanism);
}
