package io.kaas.broker.auth;

import io.kaas.api.auth.KafkaPrincipal;
import javax.security.sasl.SaslServer;

/**
 * Where one connection's SASL exchange is (KIP-152 framing, KIP-368 re-authentication). The SASL handlers
 * move it on a request-handler thread, one request of a connection at a time; the network layer reads
 * {@link #phase()} and {@link #failed()} on the event loop to gate requests, hence the volatile phase.
 *
 * <p>Phases: {@link Phase#START} (nothing yet: ApiVersions and SaslHandshake allowed), {@link Phase#EXCHANGE}
 * (a mechanism chosen by SaslHandshake, SaslAuthenticate tokens expected), {@link Phase#AUTHENTICATED},
 * {@link Phase#FAILED} (the failure answer is on its way, then the connection closes). A re-authentication
 * runs {@link Phase#EXCHANGE} again while the session stays authenticated as its previous principal.
 */
public final class SaslState {

    /** See the class comment. */
    public enum Phase { START, EXCHANGE, AUTHENTICATED, FAILED }

    private volatile Phase phase = Phase.START;
    private String mechanism;
    private SaslServer server;
    private boolean reauthenticating;
    private String badReauthMechanismMessage;
    private KafkaPrincipal previousPrincipal;
    private long lastReauthStartNanos;
    private boolean everAuthenticated;

    public Phase phase() {
        return phase;
    }

    /** Whether authentication failed: the failure answer is the last thing the connection sends. */
    public boolean failed() {
        return phase == Phase.FAILED;
    }

    /** The mechanism of the current or last exchange, or null. */
    public String mechanism() {
        return mechanism;
    }

    /** The current exchange's server (in {@link Phase#EXCHANGE}), else null. */
    public SaslServer server() {
        return server;
    }

    /** Whether the current exchange is a re-authentication (KIP-368) of an authenticated session. */
    public boolean reauthenticating() {
        return reauthenticating;
    }

    /** The principal a re-authentication must keep, or null. */
    public KafkaPrincipal previousPrincipal() {
        return previousPrincipal;
    }

    /**
     * Kafka's message for a re-authentication that asked for another (enabled) mechanism: the handshake is
     * answered, then its first SaslAuthenticate fails with this message. Null otherwise.
     */
    public String badReauthMechanismMessage() {
        return badReauthMechanismMessage;
    }

    /** When the last re-authentication began ({@link System#nanoTime()}), 0 if none did. */
    public long lastReauthStartNanos() {
        return lastReauthStartNanos;
    }

    /** Whether an exchange ever completed on this connection. */
    public boolean everAuthenticated() {
        return everAuthenticated;
    }

    /** SaslHandshake chose {@code mechanism}, served by {@code server}: SaslAuthenticate tokens come next. */
    public void begin(String mechanism, SaslServer server) {
        dispose();
        this.mechanism = mechanism;
        this.server = server;
        this.reauthenticating = false;
        this.badReauthMechanismMessage = null;
        this.phase = Phase.EXCHANGE;
    }

    /**
     * SaslHandshake on an authenticated session began a re-authentication of {@code principal} at
     * {@code nowNanos}, with {@code server} for the same mechanism, or (server null) with the message its
     * SaslAuthenticate will fail with because the client asked for another mechanism.
     */
    public void beginReauthentication(KafkaPrincipal principal, SaslServer server, String badMechanismMessage,
                                      long nowNanos) {
        dispose();
        this.server = server;
        this.reauthenticating = true;
        this.badReauthMechanismMessage = badMechanismMessage;
        this.previousPrincipal = principal;
        this.lastReauthStartNanos = nowNanos;
        this.phase = Phase.EXCHANGE;
    }

    /** The exchange completed. */
    public void completed() {
        dispose();
        this.reauthenticating = false;
        this.everAuthenticated = true;
        this.phase = Phase.AUTHENTICATED;
    }

    /** The authentication failed: the connection closes once its answer is sent. */
    public void fail() {
        dispose();
        this.phase = Phase.FAILED;
    }

    private void dispose() {
        SaslServer s = server;
        server = null;
        if (s != null) {
            try {
                s.dispose();
            } catch (Exception ignored) {
                // a mechanism's clean-up failure changes nothing for the connection
            }
        }
    }

    @Override
    public String toString() {
        return phase + (mechanism == null ? "" : " " + mechanism) + (reauthenticating ? " (re-authentication)" : "");
    }
}
