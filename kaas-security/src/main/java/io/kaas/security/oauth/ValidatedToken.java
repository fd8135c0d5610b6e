package io.kaas.security.oauth;

import java.util.Set;

/**
 * A token the validator accepted.
 *
 * @param principalName the principal (the sub claim, or the configured one)
 * @param lifetimeMs    its expiry, epoch millis (the exp claim)
 * @param scopes        its scopes
 */
record ValidatedToken(String principalName, long lifetimeMs, Set<String> scopes) {

    ValidatedToken {
        scopes = Set.copyOf(scopes);
    }
}
