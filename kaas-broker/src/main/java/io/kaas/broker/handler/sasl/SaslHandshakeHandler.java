package io.kaas.broker.handler.sasl;

import io.kaas.broker.auth.ClientSession;
import io.kaas.broker.auth.SaslState;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.RequestContext;
import io.kaas.security.sasl.SaslMechanismFactory;
import io.kaas.wire.message.SaslHandshakeRequestData;
import io.kaas.wire.message.SaslHandshakeResponseData;
import io.kaas.wire.protocol.Errors;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SaslHandshake v1 (KIP-152: the tokens follow in SaslAuthenticate requests), as Kafka: picks the
 * client's mechanism among the listener's enabled ones (UNSUPPORTED_SASL_MECHANISM with the enabled list
 * otherwise, then the connection closes); on an authenticated session whose authentication expires it begins
 * a re-authentication (KIP-368, at most once a second, same mechanism); elsewhere (a listener without SASL,
 * an authenticated session without expiry) ILLEGAL_SASL_STATE, and a second handshake in one exchange fails
 * the authentication.
 */
public final class SaslHandshakeHandler implements ApiHandler<SaslHandshakeRequestData, SaslHandshakeResponseData> {

    private static final Logger LOG = LoggerFactory.getLogger(SaslHandshakeHandler.class);
    private static final long MIN_REAUTH_INTERVAL_NANOS = 1_000_000_000L;

    private final SaslMechanisms mechanisms;
    private final FailedAuthentications failures;

    public SaslHandshakeHandler(SaslMechanisms mechanisms, FailedAuthentications failures) {
        this.mechanisms = mechanisms;
        this.failures = failures;
    }

    @Override
    public CompletableFuture<SaslHandshakeResponseData> handle(RequestContext context, SaslHandshakeRequestData request) {
        ClientSession session = context.session();
        ListenerMechanisms listener = session.usesSasl() ? mechanisms.listener(session.listenerName()) : null;
        if (listener == null) {
            return answer(Errors.ILLEGAL_SASL_STATE, List.of());
        }
        SaslState state = session.sasl();
        String mechanism = request.mechanism();
        return switch (state.phase()) {
            case START -> begin(session, listener, mechanism);
            case AUTHENTICATED -> reauthenticate(session, listener, mechanism);
            case EXCHANGE -> failures.fail(session, state.mechanism(), null,
                "Unexpected Kafka request of type SASL_HANDSHAKE during SASL authentication.",
                response(Errors.ILLEGAL_SASL_STATE, listener.enabled()));
            case FAILED -> answer(Errors.ILLEGAL_SASL_STATE, listener.enabled());
        };
    }

    private CompletableFuture<SaslHandshakeResponseData> begin(ClientSession session, ListenerMechanisms listener,
                                                               String mechanism) {
        SaslMechanismFactory factory = listener.factory(mechanism);
        if (factory == null) {
            return unsupported(session, listener, mechanism);
        }
        session.sasl().begin(mechanism, factory.newServer());
        LOG.atDebug().addKeyValue("mechanism", mechanism).addKeyValue("session", session)
            .log("Using SASL mechanism '{}' provided by client", mechanism);
        return answer(Errors.NONE, listener.enabled());
    }

    private CompletableFuture<SaslHandshakeResponseData> reauthenticate(ClientSession session, ListenerMechanisms listener,
                                                                        String mechanism) {
        SaslState state = session.sasl();
        long now = System.nanoTime();
        boolean mayReauthenticate = session.expiresAtNanos() != ClientSession.NEVER
            && (state.lastReauthStartNanos() == 0 || now - state.lastReauthStartNanos() >= MIN_REAUTH_INTERVAL_NANOS);
        if (!mayReauthenticate) {
            // Kafka: the handshake reaches the request handlers, which refuse it on an authenticated connection.
            return answer(Errors.ILLEGAL_SASL_STATE, List.of());
        }
        SaslMechanismFactory factory = listener.factory(mechanism);
        if (factory == null) {
            return unsupported(session, listener, mechanism);
        }
        String previous = state.mechanism();
        if (mechanism.equals(previous)) {
            state.beginReauthentication(session.principal(), factory.newServer(), null, now);
        } else {
            state.beginReauthentication(session.principal(), null, String.format(
                "SASL mechanism '%s' requested by client is not supported for re-authentication of mechanism '%s'",
                mechanism, previous), now);
        }
        LOG.atDebug().addKeyValue("session", session).log("Beginning re-authentication with {}", mechanism);
        return answer(Errors.NONE, listener.enabled());
    }

    private CompletableFuture<SaslHandshakeResponseData> unsupported(ClientSession session, ListenerMechanisms listener,
                                                                     String mechanism) {
        return failures.fail(session, mechanism, null, "Unsupported SASL mechanism " + mechanism + " (enabled: "
            + String.join(", ", listener.enabled()) + ")", response(Errors.UNSUPPORTED_SASL_MECHANISM, listener.enabled()));
    }

    private static CompletableFuture<SaslHandshakeResponseData> answer(short error, List<String> enabled) {
        return CompletableFuture.completedFuture(response(error, enabled));
    }

    private static SaslHandshakeResponseData response(short error, List<String> enabled) {
        return new SaslHandshakeResponseData().setErrorCode(error).setMechanisms(enabled);
    }
}
