package io.kaas.security.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.security.sasl.TestSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import javax.security.sasl.SaslServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A JWKS fetched over HTTP: loaded at start, fetched again at once for an unknown key id, at most once a second. */
class HttpJwksTest {

    @TempDir
    Path dir;

    @AfterEach
    void clear() {
        System.clearProperty(OAuthBearerMechanism.ALLOWED_URLS_PROPERTY);
    }

    private static boolean accepted(OAuthBearerMechanism m, String token) throws Exception {
        SaslServer server = m.newServer();
        server.evaluateResponse(TestIssuer.firstMessage("", token, Map.of()));
        return server.isComplete();
    }

    @Test
    void anUnknownKeyIdFetchesTheJwksAgainRateLimited() throws Exception {
        TestIssuer k1 = new TestIssuer("k1");
        TestIssuer k2 = new TestIssuer("k2");
        TestIssuer k3 = new TestIssuer("k3");
        try (JwksServer idp = new JwksServer()) {
            idp.body.set(Files.readString(TestIssuer.writeJwks(dir.resolve("a.json"), k1)));
            System.setProperty(OAuthBearerMechanism.ALLOWED_URLS_PROPERTY, idp.url());
            try (OAuthBearerMechanism m = OAuthBearerMechanism.create(TestSettings.of("SASL_SSL", "OAUTHBEARER", Map.of(
                    "oauthbearer.sasl.jaas.config", OAuthBearerMechanism.LOGIN_MODULE + " required;",
                    OAuthBearerMechanism.JWKS_ENDPOINT_URL, idp.url(),
                    OAuthBearerMechanism.JWKS_ENDPOINT_REFRESH_MS, "0")))) {
                assertThat(idp.requests.get()).isEqualTo(1);
                assertThat(accepted(m, k1.sign(TestIssuer.claims("alice", 600)))).isTrue();
                assertThat(idp.requests.get()).isEqualTo(1);

                idp.body.set(Files.readString(TestIssuer.writeJwks(dir.resolve("b.json"), k1, k2)));
                assertThat(accepted(m, k2.sign(TestIssuer.claims("bob", 600)))).isTrue();
                assertThat(idp.requests.get()).isEqualTo(2);
                // within a second of that fetch: an unknown key id is refused without another request
                assertThat(accepted(m, k3.sign(TestIssuer.claims("carol", 600)))).isFalse();
                assertThat(idp.requests.get()).isEqualTo(2);
            }
        }
    }

    @Test
    void anUnreachableEndpointAtStartRefusesTokensUntilItAnswers() throws Exception {
        TestIssuer k1 = new TestIssuer("k1");
        JwksServer idp = new JwksServer();
        String url = idp.url();
        idp.close();
        System.setProperty(OAuthBearerMechanism.ALLOWED_URLS_PROPERTY, url);
        try (OAuthBearerMechanism m = OAuthBearerMechanism.create(TestSettings.of("SASL_SSL", "OAUTHBEARER", Map.of(
                "oauthbearer.sasl.jaas.config", OAuthBearerMechanism.LOGIN_MODULE + " required;",
                OAuthBearerMechanism.JWKS_ENDPOINT_URL, url)))) {
            assertThat(accepted(m, k1.sign(TestIssuer.claims("alice", 600)))).isFalse();
        }
    }
}
