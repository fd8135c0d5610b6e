package io.kaas.broker.it.sasl;

import java.nio.file.Files;
import java.nio.file.Path;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwk.PublicJsonWebKey;
import org.jose4j.jwk.RsaJsonWebKey;
import org.jose4j.jwk.RsaJwkGenerator;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;

/** An identity provider made in the test with jose4j: an RSA key made now, its public JWKS file, signed JWTs. */
public final class Tokens {

    private final RsaJsonWebKey key;

    public Tokens(String keyId) throws Exception {
        key = RsaJwkGenerator.generateJwk(2048);
        key.setKeyId(keyId);
    }

    /** Writes this issuer's public key as a JWKS to {@code file}. */
    public Path writeJwks(Path file) throws Exception {
        PublicJsonWebKey pub = PublicJsonWebKey.Factory.newPublicJwk(key.getPublicKey());
        pub.setKeyId(key.getKeyId());
        return Files.writeString(file, new JsonWebKeySet(pub).toJson());
    }

    /** A JWT for {@code sub}, issued now, expiring in {@code lifetimeSeconds} (negative: already expired). */
    public String token(String sub, long lifetimeSeconds) throws Exception {
        JwtClaims c = new JwtClaims();
        c.setSubject(sub);
        c.setIssuer("https://idp.test");
        c.setAudience("kaas");
        c.setStringClaim("scope", "kafka");
        NumericDate iat = NumericDate.now();
        if (lifetimeSeconds < 0) {
            iat.addSeconds(2 * lifetimeSeconds);
        }
        c.setIssuedAt(iat);
        NumericDate exp = NumericDate.now();
        exp.addSeconds(lifetimeSeconds);
        c.setExpirationTime(exp);
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(c.toJson());
        jws.setKey(key.getPrivateKey());
        jws.setKeyIdHeaderValue(key.getKeyId());
        jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.RSA_USING_SHA256);
        return jws.getCompactSerialization();
    }
}
