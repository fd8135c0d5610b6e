package io.kaas.security.oauth;

import io.kaas.security.sasl.SaslAuthenticationFailure;
import io.kaas.security.sasl.SaslMechanismFactory;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;

/**
 * The server side of OAUTHBEARER as Kafka's {@code OAuthBearerSaslServer}: the client's first message carries
 * the token; a valid one completes the exchange ({@code CREDENTIAL.LIFETIME.MS} is its {@code exp}); an
 * invalid one is answered with the RFC 7628 error challenge ({@code {"status":"invalid_token"}}), and the
 * client's {@code ^A} reply then fails the authentication with that JSON as the message. An authorization id,
 * when given, must be the token's principal. Extensions are accepted and offered as negotiated properties.
 * One instance per exchange; not thread-safe.
 */
final class OAuthBearerSaslServer implements SaslServer {

    static final String MECHANISM = "OAUTHBEARER";

    private final TokenValidator validator;
    private String errorMessage;
    private TokenValidationException lastFailure;
    private ValidatedToken token;
    private Map<String, String> extensions = Map.of();
    private boolean complete;

    OAuthBearerSaslServer(TokenValidator validator) {
        this.validator = validator;
    }

    @Override
    public byte[] evaluateResponse(byte[] response) throws SaslException {
        if (complete) {
            throw new IllegalStateException("Authentication exchange has already completed");
        }
        if (response.length == 1 && response[0] == 0x01 && errorMessage != null) {
            TokenValidationException why = lastFailure;
            throw new SaslAuthenticationFailure(errorMessage, why == null ? null : why.principal(),
                why == null ? null : why.getMessage());
        }
        errorMessage = null;
        lastFailure = null;
        ClientFirstMessage first = ClientFirstMessage.parse(response);
        ValidatedToken validated;
        try {
            validated = validator.validate(first.token());
        } catch (TokenValidationException e) {
            lastFailure = e;
            errorMessage = "{\"status\":\"" + e.status() + "\"" + (e.scope() == null ? "" : ", \"scope\":\"" + e.scope() + "\"") + "}";
            return errorMessage.getBytes(StandardCharsets.UTF_8);
        }
        if (!first.authorizationId().isEmpty() && !first.authorizationId().equals(validated.principalName())) {
            throw new SaslAuthenticationFailure(String.format("Authentication failed: Client requested an authorization id "
                + "(%s) that is different from the token's principal name (%s)", first.authorizationId(),
                validated.principalName()), validated.principalName());
        }
        token = validated;
        extensions = first.extensions();
        complete = true;
        return new byte[0];
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
        return token.principalName();
    }

    @Override
    public Object getNegotiatedProperty(String propName) {
        if (!complete) {
            throw new IllegalStateException("Authentication exchange has not completed");
        }
        if (SaslMechanismFactory.CREDENTIAL_LIFETIME_MS.equals(propName)) {
            return token.lifetimeMs();
        }
        return extensions.get(propName);
    }

    @Override
    public byte[] unwrap(byte[] incoming, int offset, int len) {
        throw new IllegalStateException("OAUTHBEARER supports neither integrity nor privacy");
    }

    @Override
    public byte[] wrap(byte[] outgoing, int offset, int len) {
        throw new IllegalStateException("OAUTHBEARER supports neither integrity nor privacy");
    }

    @Override
    public void dispose() {
        token = null;
        extensions = Map.of();
    }
}
