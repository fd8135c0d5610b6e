package io.kaas.security.scram;

import io.kaas.security.sasl.SaslAuthenticationFailure;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Optional;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server side of one SCRAM exchange (RFC 5802 / RFC 7677) as Kafka's: client-first → server-first
 * (combined nonce, salt, iterations) → client-final (proof, checked in constant time) → server-final
 * (the server signature). The gs2 header is {@code n} only (no channel binding); Kafka's
 * {@code tokenauth} extension is refused (kaas has no delegation tokens).
 *
 * <p>Every failure is a {@link SaslException} with Kafka's message for invalid credentials, so a client
 * learns nothing about why; the reason goes to the debug log. An unknown user gets a server-first
 * message with a stable made-up salt and fails at the proof, exactly as a wrong password does, so the
 * exchange does not tell which users exist.
 */
public final class ScramSaslServer implements SaslServer {
    private static final Logger LOG = LoggerFactory.getLogger(ScramSaslServer.class);
    private static final SecureRandom RANDOM = new SecureRandom();
    static final String TOKEN_AUTH = "tokenauth";

    private enum State { RECEIVE_CLIENT_FIRST, RECEIVE_CLIENT_FINAL, COMPLETE, FAILED }

    private final ScramMechanism mechanism;
    private final ScramCredentialLookup lookup;
    private final byte[] unknownUserSecret;
    private State state = State.RECEIVE_CLIENT_FIRST;
    private ScramMessages.ClientFirst clientFirst;
    private String serverFirst;
    private String nonce;
    private ScramCredential credential;
    private boolean knownUser;
    private String authorizationId;

    /**
     * @param unknownUserSecret a secret of the factory from which unknown users' made-up salts are derived
     */
    ScramSaslServer(ScramMechanism mechanism, ScramCredentialLookup lookup, byte[] unknownUserSecret) {
        this.mechanism = mechanism;
        this.lookup = lookup;
        this.unknownUserSecret = unknownUserSecret;
    }

    /** Kafka's message for a failed SCRAM authentication, as its clients show it. */
    public static String invalidCredentialsMessage(ScramMechanism mechanism) {
        return "Authentication failed during authentication due to invalid credentials with SASL mechanism "
                + mechanism.mechanismName();
    }

    @Override
    public String getMechanismName() {
        return mechanism.mechanismName();
    }

    @Override
    public byte[] evaluateResponse(byte[] response) throws SaslException {
        try {
            return switch (state) {
                case RECEIVE_CLIENT_FIRST -> clientFirst(response);
                case RECEIVE_CLIENT_FINAL -> clientFinal(response);
                default -> throw new SaslException("Unexpected SCRAM message in server state " + state);
            };
        } catch (ClientVisibleFailure e) {
            String user = attemptedUser();
            fail();
            throw new SaslAuthenticationFailure(e.getMessage(), user);
        } catch (SaslException e) {
            String user = attemptedUser();
            fail();
            LOG.debug("SASL/{} authentication of {} failed: {}", mechanism.mechanismName(), userForLog(user), e.getMessage());
            throw new SaslAuthenticationFailure(invalidCredentialsMessage(mechanism), user, e.getMessage());
        } catch (RuntimeException e) {
            String user = attemptedUser();
            fail();
            LOG.warn("SASL/{} authentication of {} failed: credentials could not be read", mechanism.mechanismName(),
                    userForLog(user), e);
            throw new SaslAuthenticationFailure(invalidCredentialsMessage(mechanism), user, "credentials could not be read");
        }
    }

    private byte[] clientFirst(byte[] response) throws SaslException {
        clientFirst = ScramMessages.ClientFirst.parse(response);
        String username = clientFirst.username();
        if ("true".equalsIgnoreCase(clientFirst.extensions().get(TOKEN_AUTH))) {
            throw new SaslException("delegation token authentication requested, which kaas does not support");
        }
        if (!clientFirst.authorizationId().isEmpty() && !clientFirst.authorizationId().equals(username)) {
            throw new ClientVisibleFailure(
                    "Authentication failed: Client requested an authorization id that is different from username");
        }
        Optional<ScramCredential> found = lookup.credential(username, mechanism);
        if (found.isPresent() && !mechanism.acceptsIterations(found.get().iterations())) {
            throw new SaslException("the stored credential has " + found.get().iterations()
                    + " iterations, outside " + mechanism.minIterations() + ".." + mechanism.maxIterations());
        }
        knownUser = found.isPresent();
        credential = found.orElseGet(() -> madeUpCredential(username));
        nonce = clientFirst.nonce() + new BigInteger(130, RANDOM).toString(Character.MAX_RADIX);
        serverFirst = ScramMessages.serverFirst(nonce, credential.salt(), credential.iterations());
        state = State.RECEIVE_CLIENT_FINAL;
        return serverFirst.getBytes(StandardCharsets.UTF_8);
    }

    private byte[] clientFinal(byte[] response) throws SaslException {
        ScramMessages.ClientFinal fin = ScramMessages.ClientFinal.parse(response);
        // As Kafka's ScramSaslServer: the nonce must end with the exchange's (client + server) nonce. librdkafka
        // sends its client nonce once more in front of it, and Kafka accepts that.
        if (!fin.nonce().endsWith(nonce)) {
            throw new SaslException("the nonce of the client final message does not end with the exchange's");
        }
        if (!Arrays.equals(fin.channelBinding(), clientFirst.gs2Header().getBytes(StandardCharsets.UTF_8))) {
            throw new SaslException("the channel binding does not repeat the gs2 header");
        }
        byte[] authMessage = (clientFirst.bare() + "," + serverFirst + "," + fin.withoutProof())
                .getBytes(StandardCharsets.UTF_8);
        byte[] storedKey = credential.storedKey();
        byte[] clientSignature = ScramCredentials.hmac(mechanism, storedKey, authMessage);
        if (fin.proof().length != clientSignature.length) {
            throw new SaslException("the proof has " + fin.proof().length + " bytes, not " + clientSignature.length);
        }
        byte[] clientKey = ScramCredentials.xor(fin.proof(), clientSignature);
        boolean proofMatches = MessageDigest.isEqual(ScramCredentials.hash(mechanism, clientKey), storedKey);
        Arrays.fill(clientKey, (byte) 0);
        if (!proofMatches || !knownUser) {
            throw new SaslException(knownUser ? "wrong proof (wrong password)" : "no credential for this user");
        }
        byte[] serverSignature = ScramCredentials.hmac(mechanism, credential.serverKey(), authMessage);
        authorizationId = clientFirst.username();
        clear();
        state = State.COMPLETE;
        return ScramMessages.serverFinal(serverSignature).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * A credential no password matches, with a salt that is the same every time the same user name is
     * tried against this factory, so probing cannot tell it from a real one.
     */
    private ScramCredential madeUpCredential(String username) {
        byte[] salt = Arrays.copyOf(ScramCredentials.hmac(mechanism, unknownUserSecret,
                username.getBytes(StandardCharsets.UTF_8)), mechanism.keyLength());
        byte[] key = new byte[mechanism.keyLength()];
        RANDOM.nextBytes(key);
        return new ScramCredential(salt, key, key, ScramMechanism.MIN_ITERATIONS);
    }

    /** The user name of the client first message, or null before it was read. */
    private String attemptedUser() {
        return clientFirst == null ? null : clientFirst.username();
    }

    private static String userForLog(String user) {
        return user == null ? "a client" : "user " + user;
    }

    private void fail() {
        clear();
        state = State.FAILED;
    }

    private void clear() {
        credential = null;
        serverFirst = null;
    }

    @Override
    public boolean isComplete() {
        return state == State.COMPLETE;
    }

    @Override
    public String getAuthorizationID() {
        if (!isComplete()) {
            throw new IllegalStateException("The SCRAM exchange has not completed");
        }
        return authorizationId;
    }

    @Override
    public Object getNegotiatedProperty(String propName) {
        if (!isComplete()) {
            throw new IllegalStateException("The SCRAM exchange has not completed");
        }
        return null;
    }

    @Override
    public byte[] unwrap(byte[] incoming, int offset, int len) {
        throw new IllegalStateException("SCRAM negotiates no security layer");
    }

    @Override
    public byte[] wrap(byte[] outgoing, int offset, int len) {
        throw new IllegalStateException("SCRAM negotiates no security layer");
    }

    @Override
    public void dispose() {
        clear();
    }

    /** A failure whose own message goes to the client (Kafka's SaslAuthenticationException cases). */
    private static final class ClientVisibleFailure extends SaslException {
        ClientVisibleFailure(String message) {
            super(message);
        }
    }
}
