package io.kaas.broker.network;

import io.kaas.broker.auth.ClientSession;
import io.kaas.broker.auth.SaslState;
import io.kaas.wire.message.ApiMessageType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a connection may send before (and between) authentications, as Kafka's SASL server: until a SASL
 * exchange completed only ApiVersions, SaslHandshake and (after it) SaslAuthenticate; once the session's
 * authentication expired (KIP-368, {@code connections.max.reauth.ms} or the credential's lifetime) only a
 * re-authentication. Anything else closes the connection with one line naming the listener, the peer and the
 * API. After a failed authentication nothing more is read: the failure's answer, then the close.
 * Called on the event loop; stateless.
 */
final class AuthenticationGate {

    private static final Logger LOG = LoggerFactory.getLogger(AuthenticationGate.class);

    /** What to do with a request. */
    enum Verdict {
        /** Serve it. */
        PASS,
        /** Drop it unanswered: the connection is about to close after a failed authentication. */
        DROP,
        /** Close the connection (logged). */
        CLOSE
    }

    private AuthenticationGate() {
    }

    /**
     * The verdict on a request for {@code api} of {@code frameBytes} from {@code session} at {@code nowNanos}; before
     * the first authentication completed a request above {@code maxUnauthenticatedBytes}
     * ({@code sasl.server.max.receive.size}) closes the connection.
     */
    static Verdict admit(ClientSession session, ApiMessageType api, int frameBytes, int maxUnauthenticatedBytes,
                         long nowNanos) {
        if (!session.usesSasl()) {
            return Verdict.PASS;
        }
        SaslState sasl = session.sasl();
        SaslState.Phase phase = sasl.phase();
        if (phase == SaslState.Phase.FAILED) {
            return Verdict.DROP;
        }
        if (!sasl.everAuthenticated() && frameBytes > maxUnauthenticatedBytes) {
            return close(session, api, "it is not authenticated and the request's " + frameBytes
                + " bytes exceed sasl.server.max.receive.size (" + maxUnauthenticatedBytes + ")");
        }
        boolean saslApi = api == ApiMessageType.SASL_HANDSHAKE || api == ApiMessageType.SASL_AUTHENTICATE;
        if (session.authenticated()) {
            if (!saslApi && session.expired(nowNanos)) {
                return close(session, api, "its SASL session expired without re-authentication (KIP-368)");
            }
            return Verdict.PASS;
        }
        boolean allowed = switch (api) {
            case API_VERSIONS -> phase == SaslState.Phase.START;
            case SASL_HANDSHAKE -> true;
            case SASL_AUTHENTICATE -> phase == SaslState.Phase.EXCHANGE;
            default -> false;
        };
        return allowed ? Verdict.PASS : close(session, api, phase == SaslState.Phase.START
            ? "it is not authenticated (only ApiVersions and SaslHandshake may come first)"
            : "it is in a SASL exchange (only SaslAuthenticate may come now)");
    }

    /** Whether the answer to {@code api} is the connection's last: a failed authentication's. */
    static boolean closesAfter(ClientSession session, ApiMessageType api) {
        return session.usesSasl() && session.sasl().failed()
            && (api == ApiMessageType.SASL_HANDSHAKE || api == ApiMessageType.SASL_AUTHENTICATE);
    }

    private static Verdict close(ClientSession session, ApiMessageType api, String why) {
        LOG.atWarn().addKeyValue("listener", session.listenerName()).addKeyValue("remote", session.clientAddress())
            .addKeyValue("api", api.apiName()).addKeyValue("principal", session.principal())
            .log("closing connection from {} on listener {}: {} request while {}", session.clientAddress(),
                session.listenerName(), api.apiName(), why);
        return Verdict.CLOSE;
    }
}
