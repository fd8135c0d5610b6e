package io.kaas.broker.handler.sasl;

import io.kaas.api.auth.KafkaPrincipal;
import io.kaas.broker.auth.ClientSession;
import io.kaas.broker.auth.SaslState;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.security.sasl.SaslAuthenticationFailure;
import io.kaas.security.sasl.SaslMechanismFactory;
import io.kaas.wire.message.SaslAuthenticateRequestData;
import io.kaas.wire.message.SaslAuthenticateResponseData;
import io.kaas.wire.protocol.Errors;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SaslAuthenticate v0-2: one token of the exchange SaslHandshake began, handed to the mechanism's server.
 * When the exchange completes the session is authenticated as {@code User:<authorization id>} for
 * {@code session_lifetime_ms} (v1+; KIP-368: the least of {@code connections.max.reauth.ms} and the
 * credential's remaining lifetime, 0 when neither bounds it), and a re-authentication must keep the
 * principal. A failure answers SASL_AUTHENTICATION_FAILED with the mechanism's message for the client (or
 * Kafka's generic one), after the failed-authentication delay, and the connection closes. Outside an
 * exchange (authenticated already, or a listener without SASL) ILLEGAL_SASL_STATE, as Kafka.
 */
public final class SaslAuthenticateHandler
        implements ApiHandler<SaslAuthenticateRequestData, SaslAuthenticateResponseData> {

    private static final Logger LOG = LoggerFactory.getLogger(SaslAuthenticateHandler.class);

    private final SaslMechanisms mechanisms;
    private final FailedAuthentications failures;

    public SaslAuthenticateHandler(SaslMechanisms mechanisms, FailedAuthentications failures) {
        this.mechanisms = mechanisms;
        this.failures = failures;
    }

    @Override
    public CompletableFuture<SaslAuthenticateResponseData> handle(RequestContext context,
                                                                  SaslAuthenticateRequestData request) {
        ClientSession session = context.session();
        ListenerMechanisms listener = session.usesSasl() ? mechanisms.listener(session.listenerName()) : null;
        SaslState state = session.sasl();
        if (listener == null || state.phase() == SaslState.Phase.AUTHENTICATED) {
            return CompletableFuture.completedFuture(error(Errors.ILLEGAL_SASL_STATE,
                "SaslAuthenticate request received after successful authentication"));
        }
        if (state.failed()) {
            // pipelined behind the token that failed: never sent, the connection closes after that answer
            return CompletableFuture.completedFuture(error(Errors.SASL_AUTHENTICATION_FAILED, "Authentication failed"));
        }
        if (state.phase() != SaslState.Phase.EXCHANGE) {
            return failures.fail(session, state.mechanism(), null, "SaslAuthenticate without SaslHandshake",
                error(Errors.ILLEGAL_SASL_STATE, "Unexpected Kafka request of type SASL_AUTHENTICATE during SASL handshake."));
        }
        String mechanism = state.mechanism();
        if (state.badReauthMechanismMessage() != null) {
            return fail(session, mechanism, principalName(state.previousPrincipal()), state.badReauthMechanismMessage());
        }
        SaslServer server = state.server();
        byte[] challenge;
        try {
            challenge = server.evaluateResponse(request.authBytes() == null ? new byte[0] : request.authBytes());
        } catch (SaslAuthenticationFailure e) {
            String principal = e.attemptedUser() == null ? null : "User:" + e.attemptedUser();
            String why = e.detail() == null ? e.getMessage() : e.getMessage() + " (" + e.detail() + ")";
            return failures.fail(session, mechanism, principal, why,
                error(Errors.SASL_AUTHENTICATION_FAILED, e.getMessage()));
        } catch (SaslException | RuntimeException e) {
            LOG.atDebug().setCause(e).addKeyValue("session", session).log("SASL {} exchange failed", mechanism);
            return fail(session, mechanism, null, "Authentication failed during "
                + (state.reauthenticating() ? "re-authentication" : "authentication")
                + " due to invalid credentials with SASL mechanism " + mechanism);
        }
        byte[] token = challenge == null ? new byte[0] : challenge;
        if (!server.isComplete()) {
            return CompletableFuture.completedFuture(new SaslAuthenticateResponseData().setErrorCode(Errors.NONE)
                .setAuthBytes(token).setSessionLifetimeMs(0));
        }
        KafkaPrincipal principal = new KafkaPrincipal(KafkaPrincipal.USER_TYPE, server.getAuthorizationID());
        if (state.reauthenticating() && !principal.equals(state.previousPrincipal())) {
            KafkaPrincipal previous = state.previousPrincipal();
            return fail(session, mechanism, principal.toString(), String.format(
                "Cannot change principals during re-authentication from %s.%s: %s.%s",
                previous.type(), previous.name(), principal.type(), principal.name()));
        }
        long nowMs = System.currentTimeMillis();
        long nowNanos = System.nanoTime();
        long lifetimeMs = sessionLifetimeMs(listener.maxReauthMs(mechanism),
            server.getNegotiatedProperty(SaslMechanismFactory.CREDENTIAL_LIFETIME_MS), nowMs);
        boolean bounded = lifetimeMs >= 0;
        boolean reauthenticated = state.reauthenticating();
        session.authenticated(principal, bounded ? nowNanos + TimeUnit.MILLISECONDS.toNanos(lifetimeMs) : ClientSession.NEVER);
        state.completed();
        LOG.atDebug().addKeyValue("principal", principal).addKeyValue("client", FailedAuthentications.address(session))
            .addKeyValue("listener", session.listenerName()).addKeyValue("mechanism", mechanism)
            .addKeyValue("sessionLifetimeMs", bounded ? lifetimeMs : 0)
            .log("{} {} with SASL mechanism {}", reauthenticated ? "Re-authenticated" : "Authenticated", principal, mechanism);
        return CompletableFuture.completedFuture(new SaslAuthenticateResponseData().setErrorCode(Errors.NONE)
            .setAuthBytes(token).setSessionLifetimeMs(bounded ? lifetimeMs : 0));
    }

    /**
     * Kafka's session lifetime: the least of {@code maxReauthMs} (when above 0) and the credential's remaining
     * life (when it has an expiry), never negative; -1 when neither bounds the session.
     */
    static long sessionLifetimeMs(long maxReauthMs, Object credentialExpiryMs, long nowMs) {
        Long expiry = credentialExpiryMs instanceof Long l ? l : null;
        boolean maxSet = maxReauthMs > 0;
        if (expiry == null && !maxSet) {
            return -1;
        }
        if (expiry == null) {
            return maxReauthMs;
        }
        long remaining = Math.max(0, expiry - nowMs);
        return maxSet ? Math.min(remaining, maxReauthMs) : remaining;
    }

    private CompletableFuture<SaslAuthenticateResponseData> fail(ClientSession session, String mechanism,
                                                                  String principal, String message) {
        return failures.fail(session, mechanism, principal, message, error(Errors.SASL_AUTHENTICATION_FAILED, message));
    }

    private static String principalName(KafkaPrincipal p) {
        return p == null ? null : p.toString();
    }

    private static SaslAuthenticateResponseData error(short code, String message) {
        return new SaslAuthenticateResponseData().setErrorCode(code).setErrorMessage(message).setAuthBytes(new byte[0]);
    }
}
