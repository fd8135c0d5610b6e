package io.kaas.security.oauth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.security.sasl.SaslAuthenticationFailure;
import io.kaas.security.sasl.SaslMechanismFactory;
import io.kaas.security.sasl.TestSettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OAuthBearerMechanismTest {

    private static final String JAAS = OAuthBearerMechanism.LOGIN_MODULE + " required;";

    @TempDir
    Path dir;
    private TestIssuer issuer;
    private TestIssuer stranger;
    private String jwksUrl;
    private String previousAllowed;

    @BeforeEach
    void jwks() throws Exception {
        issuer = new TestIssuer("k1");
        stranger = new TestIssuer("k2");
        jwksUrl = TestIssuer.writeJwks(dir.resolve("jwks.json"), issuer).toUri().toString();
        previousAllowed = System.getProperty(OAuthBearerMechanism.ALLOWED_URLS_PROPERTY);
        System.setProperty(OAuthBearerMechanism.ALLOWED_URLS_PROPERTY, jwksUrl);
    }

    @AfterEach
    void restore() {
        if (previousAllowed == null) {
            System.clearProperty(OAuthBearerMechanism.ALLOWED_URLS_PROPERTY);
        } else {
            System.setProperty(OAuthBearerMechanism.ALLOWED_URLS_PROPERTY, previousAllowed);
        }
    }

    private OAuthBearerMechanism mechanism(Map<String, String> more) {
        Map<String, String> values = new HashMap<>();
        values.put("oauthbearer.sasl.jaas.config", JAAS);
        values.put("oauthbearer.sasl.server.callback.handler.class", OAuthBearerMechanism.VALIDATOR_HANDLER);
        values.put(OAuthBearerMechanism.JWKS_ENDPOINT_URL, jwksUrl);
        values.putAll(more);
        values.values().removeIf(v -> v == null || v.equals("<unset>"));
        return OAuthBearerMechanism.create(TestSettings.of("SASL_PLAINTEXT", "OAUTHBEARER", values));
    }

    private static byte[] first(String token) {
        return TestIssuer.firstMessage("", token, Map.of());
    }

    @Test
    void aSignedValidTokenAuthenticatesItsSubjectUntilItsExpiry() throws Exception {
        try (OAuthBearerMechanism m = mechanism(Map.of())) {
            JwtClaims claims = TestIssuer.claims("alice", 600);
            SaslServer server = m.newServer();
            assertThat(server.evaluateResponse(TestIssuer.firstMessage("alice", issuer.sign(claims), Map.of("traceId", "7"))))
                .isEmpty();
            assertThat(server.isComplete()).isTrue();
            assertThat(server.getAuthorizationID()).isEqualTo("alice");
            assertThat(server.getNegotiatedProperty(SaslMechanismFactory.CREDENTIAL_LIFETIME_MS))
                .isEqualTo(claims.getExpirationTime().getValueInMillis());
            assertThat(server.getNegotiatedProperty("traceId")).isEqualTo("7");
        }
    }

    /** The exchange of a refused token: the JSON challenge, the client's ^A, then the failure with the JSON. */
    private static void assertRefused(OAuthBearerMechanism m, String token) throws Exception {
        SaslServer server = m.newServer();
        byte[] challenge = server.evaluateResponse(first(token));
        assertThat(new String(challenge, StandardCharsets.UTF_8)).isEqualTo("{\"status\":\"invalid_token\"}");
        assertThat(server.isComplete()).isFalse();
        assertThatThrownBy(() -> server.evaluateResponse(new byte[] {1})).isInstanceOf(SaslAuthenticationFailure.class)
            .hasMessage("{\"status\":\"invalid_token\"}")
            .satisfies(e -> assertThat(((SaslAuthenticationFailure) e).detail()).isNotBlank().doesNotContain(token));
    }

    @Test
    void expiredNotYetValidUnsignedOrForeignTokensAreRefusedAsKafkaDoes() throws Exception {
        try (OAuthBearerMechanism m = mechanism(Map.of(OAuthBearerMechanism.CLOCK_SKEW_SECONDS, "5"))) {
            assertRefused(m, issuer.sign(TestIssuer.claims("alice", -60)));
            JwtClaims notYet = TestIssuer.claims("alice", 600);
            NumericDate nbf = NumericDate.now();
            nbf.addSeconds(120);
            notYet.setNotBefore(nbf);
            assertRefused(m, issuer.sign(notYet));
            assertRefused(m, stranger.sign(TestIssuer.claims("alice", 600)));
            assertRefused(m, TestIssuer.unsigned(TestIssuer.claims("alice", 600)));
            JwtClaims noIat = TestIssuer.claims("alice", 600);
            noIat.unsetClaim("iat");
            assertRefused(m, issuer.sign(noIat));
            JwtClaims noSub = TestIssuer.claims("alice", 600);
            noSub.unsetClaim("sub");
            assertRefused(m, issuer.sign(noSub));
            JwtClaims withAudience = TestIssuer.claims("alice", 600);
            withAudience.setAudience("kafka");
            assertRefused(m, issuer.sign(withAudience));
            assertRefused(m, "not.a.jwt");
        }
    }

    @Test
    void theAudienceTheIssuerAndTheSubjectClaimAreChecked() throws Exception {
        try (OAuthBearerMechanism m = mechanism(Map.of(OAuthBearerMechanism.EXPECTED_AUDIENCE, "kafka, other",
                OAuthBearerMechanism.EXPECTED_ISSUER, "https://idp.example", OAuthBearerMechanism.SUB_CLAIM_NAME, "client_id"))) {
            JwtClaims good = TestIssuer.claims("ignored", 600);
            good.setAudience("kafka");
            good.setIssuer("https://idp.example");
            good.setClaim("client_id", "svc-1");
            SaslServer server = m.newServer();
            server.evaluateResponse(first(issuer.sign(good)));
            assertThat(server.getAuthorizationID()).isEqualTo("svc-1");

            JwtClaims wrongAudience = JwtClaims.parse(good.toJson());
            wrongAudience.setAudience("elsewhere");
            assertRefused(m, issuer.sign(wrongAudience));
            JwtClaims wrongIssuer = JwtClaims.parse(good.toJson());
            wrongIssuer.setIssuer("https://evil.example");
            assertRefused(m, issuer.sign(wrongIssuer));
            JwtClaims noClientId = JwtClaims.parse(good.toJson());
            noClientId.unsetClaim("client_id");
            assertRefused(m, issuer.sign(noClientId));
        }
    }

    @Test
    void anAuthorizationIdOtherThanTheTokensPrincipalFails() throws Exception {
        try (OAuthBearerMechanism m = mechanism(Map.of())) {
            SaslServer server = m.newServer();
            assertThatThrownBy(() -> server.evaluateResponse(TestIssuer.firstMessage("bob", issuer.sign(
                    TestIssuer.claims("alice", 600)), Map.of())))
                .isInstanceOf(SaslAuthenticationFailure.class)
                .hasMessage("Authentication failed: Client requested an authorization id (bob) that is different from "
                    + "the token's principal name (alice)");
        }
    }

    @Test
    void aMalformedFirstMessageIsASaslException() {
        try (OAuthBearerMechanism m = mechanism(Map.of())) {
            assertThatThrownBy(() -> m.newServer().evaluateResponse("garbage".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(SaslException.class).isNotInstanceOf(SaslAuthenticationFailure.class);
            // ^A before any error is no answer to a challenge either
            assertThatThrownBy(() -> m.newServer().evaluateResponse(new byte[] {1})).isInstanceOf(SaslException.class);
        }
    }

    @Test
    void theJwksFileIsReloadedEveryRefreshInterval() throws Exception {
        TestIssuer rotated = new TestIssuer("k3");
        try (OAuthBearerMechanism m = mechanism(Map.of(OAuthBearerMechanism.JWKS_ENDPOINT_REFRESH_MS, "100"))) {
            String token = rotated.sign(TestIssuer.claims("alice", 600));
            assertRefused(m, token);
            TestIssuer.writeJwks(dir.resolve("jwks.json"), issuer, rotated);
            long end = System.nanoTime() + 5_000_000_000L;
            boolean accepted = false;
            while (!accepted && System.nanoTime() < end) {
                SaslServer server = m.newServer();
                server.evaluateResponse(first(token));
                accepted = server.isComplete();
                Thread.sleep(50);
            }
            assertThat(accepted).as("the rotated key is used within 5 s").isTrue();
        }
    }

    @Test
    void unsecuredTokensOnlyWithKafkasUnsecuredValidatorNamed() throws Exception {
        try (OAuthBearerMechanism m = mechanism(Map.of("oauthbearer.sasl.server.callback.handler.class",
                OAuthBearerMechanism.UNSECURED_HANDLER, OAuthBearerMechanism.JWKS_ENDPOINT_URL, "<unset>",
                "oauthbearer.sasl.jaas.config", OAuthBearerMechanism.LOGIN_MODULE
                    + " required unsecuredValidatorRequiredScope=\"kafka\";"))) {
            JwtClaims claims = TestIssuer.claims("dev", 600);
            claims.setStringListClaim("scope", "kafka", "other");
            SaslServer server = m.newServer();
            server.evaluateResponse(first(TestIssuer.unsigned(claims)));
            assertThat(server.getAuthorizationID()).isEqualTo("dev");

            SaslServer noScope = m.newServer();
            byte[] challenge = noScope.evaluateResponse(first(TestIssuer.unsigned(TestIssuer.claims("dev", 600))));
            assertThat(new String(challenge, StandardCharsets.UTF_8))
                .isEqualTo("{\"status\":\"insufficient_scope\", \"scope\":\"kafka\"}");
            SaslServer expired = m.newServer();
            assertThat(new String(expired.evaluateResponse(first(TestIssuer.unsigned(TestIssuer.claims("dev", -10)))),
                StandardCharsets.UTF_8)).isEqualTo("{\"status\":\"invalid_token\"}");
        }
    }

    @Test
    void badConfigIsRefusedNamingTheKey() {
        assertThatThrownBy(() -> mechanism(Map.of(OAuthBearerMechanism.JWKS_ENDPOINT_URL, "<unset>")))
            .hasMessageContaining("sasl.oauthbearer.jwks.endpoint.url is not set")
            .hasMessageContaining(OAuthBearerMechanism.UNSECURED_HANDLER);
        assertThatThrownBy(() -> mechanism(Map.of("oauthbearer.sasl.server.callback.handler.class", "<unset>",
                OAuthBearerMechanism.JWKS_ENDPOINT_URL, "<unset>")))
            .hasMessageContaining("sasl.oauthbearer.jwks.endpoint.url is not set");
        assertThatThrownBy(() -> mechanism(Map.of("oauthbearer.sasl.server.callback.handler.class", "com.example.MyHandler")))
            .hasMessageContaining("listener.name.sasl_plaintext.oauthbearer.sasl.server.callback.handler.class")
            .hasMessageContaining("kaas loads no callback handler classes");
        assertThatThrownBy(() -> mechanism(Map.of("oauthbearer.sasl.jaas.config", "x.Y required;")))
            .hasMessageContaining("OAUTHBEARER needs the login module");
        assertThatThrownBy(() -> mechanism(Map.of(OAuthBearerMechanism.JWKS_ENDPOINT_URL, "ftp://idp/jwks")))
            .hasMessageContaining("only \"http\", \"https\", and \"file\"");
        assertThatThrownBy(() -> mechanism(Map.of(OAuthBearerMechanism.JWKS_ENDPOINT_URL, "https://idp.example/jwks")))
            .hasMessageContaining("Update the system property 'org.apache.kafka.sasl.oauthbearer.allowed.urls'");
        assertThatThrownBy(() -> mechanism(Map.of(OAuthBearerMechanism.CLOCK_SKEW_SECONDS, "-1")))
            .hasMessageContaining("sasl.oauthbearer.clock.skew.seconds");
        assertThatThrownBy(() -> mechanism(Map.of(OAuthBearerMechanism.JWKS_ENDPOINT_REFRESH_MS, "hourly")))
            .hasMessageContaining("sasl.oauthbearer.jwks.endpoint.refresh.ms");
    }

    @Test
    void aMissingOrUnparseableJwksFileIsRefused() throws Exception {
        String missing = dir.resolve("none.json").toUri().toString();
        System.setProperty(OAuthBearerMechanism.ALLOWED_URLS_PROPERTY, missing + "," + jwksUrl);
        assertThatThrownBy(() -> mechanism(Map.of(OAuthBearerMechanism.JWKS_ENDPOINT_URL, missing)))
            .hasMessageContaining("doesn't exist");
        java.nio.file.Files.writeString(dir.resolve("jwks.json"), "{not json");
        assertThatThrownBy(() -> mechanism(Map.of()))
            .hasMessageContaining("sasl.oauthbearer.jwks.endpoint.url").hasMessageContaining("cannot load the JWKS");
    }
}
