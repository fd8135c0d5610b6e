package io.kaas.security.oauth;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwk.RsaJsonWebKey;
import org.jose4j.jwk.RsaJwkGenerator;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.jose4j.lang.JoseException;

/** An identity provider made in the test: an RSA key (made now), its JWKS file, and signed tokens. */
final class TestIssuer {

    final RsaJsonWebKey key;

    TestIssuer(String keyId) throws JoseException {
        key = RsaJwkGenerator.generateJwk(2048);
        key.setKeyId(keyId);
    }

    /** Writes the public JWKS of {@code issuers} to {@code file}. */
    static Path writeJwks(Path file, TestIssuer... issuers) throws Exception {
        JsonWebKeySet set = new JsonWebKeySet();
        for (TestIssuer i : issuers) {
            set.addJsonWebKey(RsaJsonWebKey.Factory.newPublicJwk(i.key.getRsaPublicKey()));
            set.getJsonWebKeys().get(set.getJsonWebKeys().size() - 1).setKeyId(i.key.getKeyId());
        }
        return Files.writeString(file, set.toJson());
    }

    /** Claims valid now for {@code sub}: iat now, exp in {@code lifetimeSeconds}. */
    static JwtClaims claims(String sub, long lifetimeSeconds) {
        JwtClaims c = new JwtClaims();
        c.setSubject(sub);
        c.setIssuedAtToNow();
        NumericDate exp = NumericDate.now();
        exp.addSeconds(lifetimeSeconds);
        c.setExpirationTime(exp);
        return c;
    }

    String sign(JwtClaims claims) throws JoseException {
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims.toJson());
        jws.setKey(key.getPrivateKey());
        jws.setKeyIdHeaderValue(key.getKeyId());
        jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.RSA_USING_SHA256);
        return jws.getCompactSerialization();
    }

    /** An unsigned token (alg none), as Kafka's unsecured login makes. */
    static String unsigned(JwtClaims claims) throws JoseException {
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims.toJson());
        jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.NONE);
        jws.setAlgorithmConstraints(org.jose4j.jwa.AlgorithmConstraints.NO_CONSTRAINTS);
        return jws.getCompactSerialization();
    }

    /** The client's first message with {@code token} and {@code extensions}. */
    static byte[] firstMessage(String authzid, String token, Map<String, String> extensions) {
        StringBuilder s = new StringBuilder("n,").append(authzid.isEmpty() ? "" : "a=" + authzid).append(",\u0001auth=Bearer ")
            .append(token).append('\u0001');
        extensions.forEach((k, v) -> s.append(k).append('=').append(v).append('\u0001'));
        return s.append('\u0001').toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    static List<String> list(String... s) {
        return List.of(s);
    }
}
