package io.kaas.api.auth;

/** The decision on one {@link Action}. */
public enum AuthorizationResult {
    ALLOWED,
    DENIED
}
