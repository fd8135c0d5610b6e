package io.kaas.security.sasl;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;

/**
 * The server side of SASL/PLAIN (RFC 4616) as Kafka's {@code PlainSaslServer}: one message
 * {@code [authzid] NUL authcid NUL passwd}; the authorization id must be empty or the user name; the
 * password checked against {@link PlainUsers}. One instance per exchange; not thread-safe.
 */
final class PlainSaslServer implements SaslServer {

    static final String MECHANISM = "PLAIN";

    private final PlainUsers users;
    private String authorizationId;
    private boolean complete;

    PlainSaslServer(PlainUsers users) {
        this.users = users;
    }

    @Override
    public byte[] evaluateResponse(byte[] response) throws SaslException {
        if (complete) {
            throw new IllegalStateException("Authentication exchange has already completed");
        }
        String[] tokens = tokens(new String(response, StandardCharsets.UTF_8));
        String authzid = tokens[0];
        String username = tokens[1];
        char[] password = tokens[2].toCharArray();
        tokens[2] = null;
        try {
            if (username.isEmpty()) {
                throw new SaslAuthenticationFailure("Authentication failed: username not specified");
            }
            if (password.length == 0) {
                throw new SaslAuthenticationFailure("Authentication failed: password not specified", username);
            }
            if (!users.matches(username, password)) {
                throw new SaslAuthenticationFailure("Authentication failed: Invalid username or password", username);
            }
        } finally {
            Arrays.fill(password, '\0');
        }
        if (!authzid.isEmpty() && !authzid.equals(username)) {
            throw new SaslAuthenticationFailure(
                "Authentication failed: Client requested an authorization id that is different from username", username);
        }
        authorizationId = username;
        complete = true;
        return new byte[0];
    }

    /** Exactly three NUL-separated tokens, or Kafka's failure (which counts up to four). */
    private static String[] tokens(String message) throws SaslAuthenticationFailure {
        String[] tokens = message.split("\0", 4);
        if (tokens.length != 3) {
            throw new SaslAuthenticationFailure("Invalid SASL/PLAIN response: expected 3 tokens, got " + tokens.length);
        }
        return tokens;
    }

    @Override
    public String getMechanismName() {
        return MECHANISM;
    }

    @Override
    public boolean isComplete() {
        return complete;
    }

    @Override
    public String getAuthorizationID() {
        if (!complete) {
            throw new IllegalStateException("Authentication exchange has not completed");
        }
        return authorizationId;
    }

    @Override
    public Object getNegotiatedProperty(String propName) {
        if (!complete) {
            throw new IllegalStateException("Authentication exchange has not completed");
        }
        return null;
    }

    @Override
    public byte[] unwrap(byte[] incoming, int offset, int len) {
        throw new IllegalStateException("PLAIN supports neither integrity nor privacy");
    }

    @Override
    public byte[] wrap(byte[] outgoing, int offset, int len) {
        throw new IllegalStateException("PLAIN supports neither integrity nor privacy");
    }

    @Override
    public void dispose() {
        authorizationId = null;
    }
}
