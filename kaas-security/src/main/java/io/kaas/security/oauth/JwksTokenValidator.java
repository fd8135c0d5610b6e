package io.kaas.security.oauth;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jose4j.jwa.AlgorithmConstraints;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.MalformedClaimException;
import org.jose4j.jwt.NumericDate;
import org.jose4j.jwt.consumer.InvalidJwtException;
import org.jose4j.jwt.consumer.JwtConsumer;
import org.jose4j.jwt.consumer.JwtConsumerBuilder;
import org.jose4j.keys.resolvers.VerificationKeyResolver;

/**
 * Kafka's broker validation of a JWT access token (its {@code BrokerJwtValidator}), with jose4j: a signature
 * (never {@code none}) by a key of the JWKS, {@code exp} and {@code iat} present, {@code exp}/{@code nbf}/
 * {@code iat} checked with {@code sasl.oauthbearer.clock.skew.seconds}, {@code aud} one of
 * {@code sasl.oauthbearer.expected.audience} (a token with an audience is refused when none is expected, as
 * jose4j and Kafka do), {@code iss} equal to {@code sasl.oauthbearer.expected.issuer} when set, and a non-blank
 * subject from {@code sasl.oauthbearer.sub.claim.name}; the scopes from {@code sasl.oauthbearer.scope.claim.name}.
 */
final class JwksTokenValidator implements TokenValidator {

    private final JwtConsumer consumer;
    private final String subClaim;
    private final String scopeClaim;
    private final AutoCloseable keys;

    JwksTokenValidator(VerificationKeyResolver keys, int clockSkewSeconds, List<String> expectedAudiences,
                       String expectedIssuer, String subClaim, String scopeClaim) {
        JwtConsumerBuilder builder = new JwtConsumerBuilder().setAllowedClockSkewInSeconds(clockSkewSeconds);
        if (!expectedAudiences.isEmpty()) {
            builder.setExpectedAudience(expectedAudiences.toArray(new String[0]));
        }
        if (expectedIssuer != null) {
            builder.setExpectedIssuer(expectedIssuer);
        }
        this.consumer = builder.setJwsAlgorithmConstraints(AlgorithmConstraints.DISALLOW_NONE)
            .setRequireExpirationTime().setRequireIssuedAt().setVerificationKeyResolver(keys).build();
        this.subClaim = subClaim;
        this.scopeClaim = scopeClaim;
        this.keys = keys instanceof AutoCloseable c ? c : null;
    }

    @Override
    public ValidatedToken validate(String token) throws TokenValidationException {
        JwtClaims claims;
        try {
            claims = consumer.processToClaims(token);
        } catch (InvalidJwtException e) {
            throw new TokenValidationException("Could not validate the access token: "
                + TokenValidationException.redact(e.getMessage(), token),
                subject(e.getJwtContext() == null ? null : e.getJwtContext().getJwtClaims()));
        }
        return Claims.token(claims, subClaim, scopeClaim);
    }

    private String subject(JwtClaims claims) {
        try {
            return claims == null ? null : claims.getStringClaimValue(subClaim);
        } catch (MalformedClaimException e) {
            return null;
        }
    }

    @Override
    public void close() {
        if (keys != null) {
            try {
                keys.close();
            } catch (Exception ignored) {
                // nothing to do: the refresher is a daemon
            }
        }
    }

    /** The claims Kafka reads from a validated token. */
    static final class Claims {
        private Claims() {
        }

        static ValidatedToken token(JwtClaims claims, String subClaim, String scopeClaim) throws TokenValidationException {
            String sub;
            NumericDate exp;
            Object scopeRaw;
            try {
                sub = claims.getStringClaimValue(subClaim);
                exp = claims.getExpirationTime();
                scopeRaw = claims.getClaimValue(scopeClaim);
            } catch (MalformedClaimException e) {
                throw new TokenValidationException("Could not extract the claims of the access token: " + e.getMessage(), null);
            }
            if (sub == null || sub.isBlank()) {
                throw new TokenValidationException("The access token has no value for its '" + subClaim + "' claim", null);
            }
            if (exp == null) {
                throw new TokenValidationException("The access token has no 'exp' claim", sub);
            }
            Set<String> scopes = new LinkedHashSet<>();
            if (scopeRaw instanceof String s) {
                // as Kafka: a string claim is one scope
                if (s.isBlank()) {
                    throw new TokenValidationException("The access token's '" + scopeClaim + "' claim holds an empty scope", sub);
                }
                scopes.add(s.trim());
            } else if (scopeRaw instanceof Collection<?> c) {
                for (Object o : c) {
                    if (o == null || o.toString().isBlank()) {
                        throw new TokenValidationException("The access token's '" + scopeClaim + "' claim holds an empty scope", sub);
                    }
                    scopes.add(o.toString().trim());
                }
            }
            return new ValidatedToken(sub.trim(), exp.getValueInMillis(), scopes);
        }
    }
}
