package io.kaas.security.oauth;

/** Checks a bearer token and tells whose it is. Thread-safe. */
interface TokenValidator extends AutoCloseable {

    ValidatedToken validate(String token) throws TokenValidationException;

    @Override
    default void close() {
    }
}
