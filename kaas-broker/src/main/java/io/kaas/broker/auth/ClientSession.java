package io.kaas.broker.auth;

import io.kaas.api.auth.KafkaPrincipal;
import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * Who is on the other end of one connection: the listener it arrived on, its address, and its principal
 * once known. One per connection, created by the network layer when the connection opens; the TLS
 * handshake (the certificate's principal) and SASL (the authenticated user) change it, request-handler
 * threads and the event loop read it. Thread-safe: writes are published through volatile fields.
 *
 * <p>On a PLAINTEXT or SSL listener a session is authenticated from the start (as {@code User:ANONYMOUS},
 * or the certificate's principal once the handshake is done); on a SASL listener it becomes
 * authenticated when a SaslAuthenticate exchange completes, and stays so until {@link #expiresAtNanos()}
 * ({@code connections.max.reauth.ms}, KIP-368), by which the client must re-authenticate.
 */
public final class ClientSession {

    /** {@link #expiresAtNanos()} of a session that never expires. */
    public static final long NEVER = Long.MAX_VALUE;

    private final String listenerName;
    private final String securityProtocol;
    private final InetSocketAddress clientAddress;
    private volatile KafkaPrincipal principal;
    private volatile boolean authenticated;
    private volatile long expiresAtNanos = NEVER;
    private final SaslState sasl = new SaslState();

    /**
     * @param listenerName     the listener's name, e.g. {@code PLAINTEXT} or {@code CLIENT}
     * @param securityProtocol the listener's security protocol name (PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL)
     * @param clientAddress    the peer, possibly null (an embedded channel)
     * @param authenticated    true unless the listener uses SASL
     */
    public ClientSession(String listenerName, String securityProtocol, InetSocketAddress clientAddress,
                         boolean authenticated) {
        this.listenerName = Objects.requireNonNull(listenerName, "listenerName");
        this.securityProtocol = Objects.requireNonNull(securityProtocol, "securityProtocol");
        this.clientAddress = clientAddress;
        this.principal = KafkaPrincipal.ANONYMOUS;
        this.authenticated = authenticated;
    }

    /** An authenticated {@code User:ANONYMOUS} session on a PLAINTEXT listener named {@code listenerName}. */
    public static ClientSession plaintext(String listenerName, InetSocketAddress clientAddress) {
        return new ClientSession(listenerName == null ? "PLAINTEXT" : listenerName, "PLAINTEXT", clientAddress, true);
    }

    public String listenerName() {
        return listenerName;
    }

    public String securityProtocol() {
        return securityProtocol;
    }

    public InetSocketAddress clientAddress() {
        return clientAddress;
    }

    /** The principal requests are authorized as ({@code User:ANONYMOUS} until something better is known). */
    public KafkaPrincipal principal() {
        return principal;
    }

    /** Whether the listener authenticates its clients with SASL (SASL_PLAINTEXT, SASL_SSL). */
    public boolean usesSasl() {
        return securityProtocol.startsWith("SASL_");
    }

    /** The connection's SASL exchange (used on SASL listeners only). */
    public SaslState sasl() {
        return sasl;
    }

    /**
     * Whether the authentication ran out at {@code nowNanos} ({@link System#nanoTime()}): a session with an
     * expiry (KIP-368) that was not re-authenticated in time.
     */
    public boolean expired(long nowNanos) {
        long expires = expiresAtNanos;
        return expires != NEVER && nowNanos - expires > 0;
    }

    /** Whether requests other than ApiVersions and the SASL APIs may be served. */
    public boolean authenticated() {
        return authenticated;
    }

    /** When the authentication runs out ({@link System#nanoTime()} scale), {@link #NEVER} if it does not. */
    public long expiresAtNanos() {
        return expiresAtNanos;
    }

    /** The certificate's principal of a TLS connection without SASL, set once its handshake completes. */
    public void certificatePrincipal(KafkaPrincipal principal) {
        this.principal = Objects.requireNonNull(principal, "principal");
    }

    /**
     * A SASL exchange (first or re-authentication) succeeded for {@code principal}, valid until
     * {@code expiresAtNanos} ({@link #NEVER} for no limit).
     */
    public void authenticated(KafkaPrincipal principal, long expiresAtNanos) {
        this.principal = Objects.requireNonNull(principal, "principal");
        this.expiresAtNanos = expiresAtNanos;
        this.authenticated = true;
    }

    @Override
    public String toString() {
        return principal + "@" + (clientAddress == null ? "?" : clientAddress.getAddress().getHostAddress()) + " on "
            + listenerName + " (" + securityProtocol + (authenticated ? "" : ", not authenticated") + ")";
    }
}
