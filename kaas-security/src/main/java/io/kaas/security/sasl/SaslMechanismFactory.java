package io.kaas.security.sasl;

import javax.security.sasl.SaslServer;

/**
 * The server side of one SASL mechanism on one listener. The broker keeps one factory per enabled
 * mechanism ({@code sasl.enabled.mechanisms}) and asks it for a fresh {@link SaslServer} for every
 * authentication (and every re-authentication, KIP-368) of a connection.
 *
 * <p>The server's contract, as the broker uses it: {@link SaslServer#evaluateResponse} is called with
 * each SaslAuthenticate token on a request-handler thread (never an event loop), and may throw
 * {@link javax.security.sasl.SaslAuthenticationException}-like {@link javax.security.sasl.SaslException}s
 * whose message is sent to the client; once {@link SaslServer#isComplete()}, the principal is
 * {@code User:} + {@link SaslServer#getAuthorizationID()}, and
 * {@code getNegotiatedProperty("CREDENTIAL.LIFETIME.MS")} may give a {@link Long} expiry (epoch millis)
 * of the credential (OAUTHBEARER tokens), which bounds the session as in Kafka.
 */
public interface SaslMechanismFactory {

    /** The negotiated property Kafka's servers use for the credential's expiry, epoch millis. */
    String CREDENTIAL_LIFETIME_MS = "CREDENTIAL.LIFETIME.MS";

    /** The mechanism's name as clients send it in SaslHandshake, e.g. {@code SCRAM-SHA-256}. */
    String mechanism();

    /** A server for one authentication exchange. */
    SaslServer newServer();
}
