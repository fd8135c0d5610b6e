package io.kaas.security.sasl;

import javax.security.sasl.AuthenticationException;

/**
 * A failed authentication whose message is meant for the client, as Kafka's
 * {@code SaslAuthenticationException}: the broker answers SaslAuthenticate with SASL_AUTHENTICATION_FAILED
 * and this message. Any other {@link javax.security.sasl.SaslException} from a mechanism is answered with
 * Kafka's generic message instead. Carries the user the client tried, when the mechanism learnt it, for
 * the broker's log line (never a password or a token).
 */
public final class SaslAuthenticationFailure extends AuthenticationException {

    private static final long serialVersionUID = 1L;

    private final transient String attemptedUser;
    private final transient String detail;

    /** A failure, the user tried unknown. */
    public SaslAuthenticationFailure(String message) {
        this(message, null);
    }

    /**
     * @param message       the message the client is sent
     * @param attemptedUser the user name the client gave, or null if unknown
     */
    public SaslAuthenticationFailure(String message, String attemptedUser) {
        this(message, attemptedUser, null);
    }

    /**
     * @param message       the message the client is sent
     * @param attemptedUser the user name the client gave, or null if unknown
     * @param detail        why, for the broker's log only (never a secret), or null
     */
    public SaslAuthenticationFailure(String message, String attemptedUser, String detail) {
        super(message);
        this.attemptedUser = attemptedUser;
        this.detail = detail;
    }

    /** Why, for the broker's log (the client sees only the message), or null. */
    public String detail() {
        return detail;
    }

    /** The user name the client tried, or null when the mechanism did not learn one. */
    public String attemptedUser() {
        return attemptedUser;
    }
}
