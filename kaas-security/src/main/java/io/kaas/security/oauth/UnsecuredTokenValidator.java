package io.kaas.security.oauth;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jose4j.jwa.AlgorithmConstraints;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.MalformedClaimException;
import org.jose4j.jwt.consumer.InvalidJwtException;
import org.jose4j.jwt.consumer.JwtConsumer;
import org.jose4j.jwt.consumer.JwtConsumerBuilder;
import org.jose4j.jwa.AlgorithmConstraints.ConstraintType;

/**
 * Kafka's {@code OAuthBearerUnsecuredValidatorCallbackHandler}: unsigned tokens ({@code alg} {@code none}), for
 * development only, with the JAAS options {@code unsecuredValidatorPrincipalClaimName} (default {@code sub}),
 * {@code unsecuredValidatorScopeClaimName} ({@code scope}), {@code unsecuredValidatorRequiredScope} (space
 * separated; a token lacking one is refused {@code insufficient_scope}) and
 * {@code unsecuredValidatorAllowableClockSkewMs} (0); {@code exp} required, {@code iat} checked when present.
 */
final class UnsecuredTokenValidator implements TokenValidator {

    static final String PRINCIPAL_CLAIM_OPTION = "unsecuredValidatorPrincipalClaimName";
    static final String SCOPE_CLAIM_OPTION = "unsecuredValidatorScopeClaimName";
    static final String REQUIRED_SCOPE_OPTION = "unsecuredValidatorRequiredScope";
    static final String CLOCK_SKEW_OPTION = "unsecuredValidatorAllowableClockSkewMs";

    private final JwtConsumer consumer;
    private final String principalClaim;
    private final String scopeClaim;
    private final List<String> requiredScope;

    UnsecuredTokenValidator(String principalClaim, String scopeClaim, List<String> requiredScope, long clockSkewMs) {
        this.consumer = new JwtConsumerBuilder()
            .setJwsAlgorithmConstraints(new AlgorithmConstraints(ConstraintType.PERMIT, "none"))
            .setDisableRequireSignature().setSkipSignatureVerification().setSkipDefaultAudienceValidation()
            .setRequireExpirationTime().setAllowedClockSkewInSeconds((int) Math.min(Integer.MAX_VALUE, (clockSkewMs + 999) / 1000))
            .build();
        this.principalClaim = principalClaim;
        this.scopeClaim = scopeClaim;
        this.requiredScope = List.copyOf(requiredScope);
    }

    /** Kafka's scope syntax: space-separated. */
    static List<String> parseScope(String text) {
        return text == null ? List.of() : Arrays.stream(text.split(" ")).filter(s -> !s.isBlank()).toList();
    }

    @Override
    public ValidatedToken validate(String token) throws TokenValidationException {
        JwtClaims claims;
        try {
            claims = consumer.processToClaims(token);
        } catch (InvalidJwtException e) {
            throw new TokenValidationException("Could not validate the unsecured token: "
                + TokenValidationException.redact(e.getMessage(), token), null);
        }
        try {
            if (claims.getIssuedAt() != null && claims.getExpirationTime() != null
                    && claims.getIssuedAt().isAfter(claims.getExpirationTime())) {
                throw new TokenValidationException("The token's 'iat' is after its 'exp'", null);
            }
        } catch (MalformedClaimException e) {
            throw new TokenValidationException("Malformed time claim in the unsecured token: " + e.getMessage(), null);
        }
        ValidatedToken validated = JwksTokenValidator.Claims.token(claims, principalClaim, scopeClaim);
        Set<String> missing = new LinkedHashSet<>(requiredScope);
        missing.removeAll(validated.scopes());
        if (!missing.isEmpty()) {
            throw new TokenValidationException("insufficient_scope", String.join(" ", requiredScope),
                "The token lacks the required scope " + missing, validated.principalName());
        }
        return validated;
    }
}
