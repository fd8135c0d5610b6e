package io.kaas.security.scram;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import javax.security.sasl.SaslClient;
import javax.security.sasl.SaslException;

/**
 * The client side of SCRAM-SHA-256 / SCRAM-SHA-512 (RFC 5802 and 7677, as Kafka's ScramSaslClient speaks it): no
 * channel binding (gs2 header {@code n,,}), no extensions. It checks the server's nonce extends its own, the
 * iteration count is within Kafka's bounds, and the server's final signature, so a server that does not know the
 * password fails the exchange. The JDK has no SCRAM client; this one is built on the same primitives as the server
 * ({@link ScramCredentials}: PBKDF2, HMAC and the hash of the mechanism). Not thread-safe; one per exchange.
 */
public final class ScramSaslClient implements SaslClient {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String GS2_HEADER = "n,,";
    private static final byte[] CLIENT_KEY = "Client Key".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SERVER_KEY = "Server Key".getBytes(StandardCharsets.US_ASCII);

    private enum State { INITIAL, FIRST_SENT, FINAL_SENT, COMPLETE, FAILED }

    private final ScramMechanism mechanism;
    private final String username;
    private final String password;
    private final String clientNonce;
    private State state = State.INITIAL;
    private String clientFirstBare;
    private byte[] expectedServerSignature;

    /** @param username the SCRAM user; @param password its password (never logged, never in a message) */
    public ScramSaslClient(ScramMechanism mechanism, String username, String password) {
        this.mechanism = mechanism;
        this.username = username;
        this.password = password;
        byte[] nonce = new byte[24];
        RANDOM.nextBytes(nonce);
        this.clientNonce = Base64.getUrlEncoder().withoutPadding().encodeToString(nonce);
    }

    @Override
    public String getMechanismName() {
        return mechanism.mechanismName();
    }

    @Override
    public boolean hasInitialResponse() {
        return true;
    }

    @Override
    public byte[] evaluateChallenge(byte[] challenge) throws SaslException {
        try {
            return switch (state) {
                case INITIAL -> first();
                case FIRST_SENT -> clientFinal(challenge);
                case FINAL_SENT -> serverFinal(challenge);
                default -> throw new SaslException("SCRAM exchange already " + state.name().toLowerCase());
            };
        } catch (SaslException e) {
            state = State.FAILED;
            throw e;
        }
    }

    private byte[] first() {
        clientFirstBare = "n=" + encodeName(username) + ",r=" + clientNonce;
        state = State.FIRST_SENT;
        return (GS2_HEADER + clientFirstBare).getBytes(StandardCharsets.UTF_8);
    }

    private byte[] clientFinal(byte[] challenge) throws SaslException {
        String serverFirst = new String(challenge == null ? new byte[0] : challenge, StandardCharsets.UTF_8);
        if (serverFirst.startsWith("e=")) {
            throw new SaslException("SCRAM server refused the client first message: " + serverFirst.substring(2));
        }
        String nonce = null;
        String salt = null;
        String iterations = null;
        for (String field : serverFirst.split(",")) {
            if (field.startsWith("r=")) {
                nonce = field.substring(2);
            } else if (field.startsWith("s=")) {
                salt = field.substring(2);
            } else if (field.startsWith("i=")) {
                iterations = field.substring(2);
            }
        }
        if (nonce == null || salt == null || iterations == null) {
            throw new SaslException("Invalid SCRAM server first message: expected r=<nonce>,s=<salt>,i=<iterations>");
        }
        if (!nonce.startsWith(clientNonce) || nonce.length() == clientNonce.length()) {
            throw new SaslException("Invalid SCRAM server first message: the server nonce does not extend the client's");
        }
        int count;
        byte[] saltBytes;
        try {
            count = Integer.parseInt(iterations);
            saltBytes = Base64.getDecoder().decode(salt);
        } catch (IllegalArgumentException e) {
            throw new SaslException("Invalid SCRAM server first message: bad salt or iteration count");
        }
        if (!mechanism.acceptsIterations(count)) {
            throw new SaslException("Invalid SCRAM server first message: " + count + " iterations, outside ["
                    + mechanism.minIterations() + ", " + mechanism.maxIterations() + "]");
        }
        byte[] salted = ScramCredentials.saltedPassword(mechanism, password, saltBytes, count);
        byte[] clientKey = ScramCredentials.hmac(mechanism, salted, CLIENT_KEY);
        byte[] serverKey = ScramCredentials.hmac(mechanism, salted, SERVER_KEY);
        byte[] storedKey = ScramCredentials.hash(mechanism, clientKey);
        String withoutProof = "c=" + Base64.getEncoder().encodeToString(GS2_HEADER.getBytes(StandardCharsets.US_ASCII))
                + ",r=" + nonce;
        byte[] authMessage = (clientFirstBare + "," + serverFirst + "," + withoutProof).getBytes(StandardCharsets.UTF_8);
        byte[] clientSignature = ScramCredentials.hmac(mechanism, storedKey, authMessage);
        byte[] proof = ScramCredentials.xor(clientKey, clientSignature);
        expectedServerSignature = ScramCredentials.hmac(mechanism, serverKey, authMessage);
        Arrays.fill(salted, (byte) 0);
        Arrays.fill(clientKey, (byte) 0);
        Arrays.fill(serverKey, (byte) 0);
        state = State.FINAL_SENT;
        return (withoutProof + ",p=" + Base64.getEncoder().encodeToString(proof)).getBytes(StandardCharsets.UTF_8);
    }

    private byte[] serverFinal(byte[] challenge) throws SaslException {
        String message = new String(challenge == null ? new byte[0] : challenge, StandardCharsets.UTF_8);
        if (message.startsWith("e=")) {
            throw new SaslException("SCRAM authentication failed: " + message.substring(2));
        }
        if (!message.startsWith("v=")) {
            throw new SaslException("Invalid SCRAM server final message: expected v=<signature>");
        }
        byte[] signature;
        try {
            signature = Base64.getDecoder().decode(message.substring(2).split(",")[0]);
        } catch (IllegalArgumentException e) {
            throw new SaslException("Invalid SCRAM server final message: the signature is not base64");
        }
        if (!MessageDigest.isEqual(signature, expectedServerSignature)) {
            throw new SaslException("SCRAM authentication failed: the server's signature is wrong (it does not know "
                    + "the credential)");
        }
        state = State.COMPLETE;
        return null;
    }

    /** {@code saslname}: a comma is {@code =2C}, an equals sign {@code =3D}. */
    static String encodeName(String name) {
        return name.replace("=", "=3D").replace(",", "=2C");
    }

    @Override
    public boolean isComplete() {
        return state == State.COMPLETE;
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
    public Object getNegotiatedProperty(String propName) {
        return null;
    }

    @Override
    public void dispose() {
        expectedServerSignature = null;
    }
}
