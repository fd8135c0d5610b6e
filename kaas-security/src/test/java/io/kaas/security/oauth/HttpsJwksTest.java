package io.kaas.security.oauth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.security.sasl.TestSettings;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.security.sasl.SaslServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JWKS over HTTPS from an endpoint whose certificate is made in the test (keytool), trusted through the JAAS
 * config's {@code ssl.truststore.*} options as Kafka's broker does.
 */
class HttpsJwksTest {

    @TempDir
    Path dir;

    @AfterEach
    void clear() {
        System.clearProperty(OAuthBearerMechanism.ALLOWED_URLS_PROPERTY);
    }

    private void keytool(String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
    }

    @Test
    void theJwksIsFetchedOverTlsTrustedThroughTheJaasOptions() throws Exception {
        keytool("-genkeypair", "-keyalg", "RSA", "-keysize", "2048", "-alias", "idp", "-dname", "CN=127.0.0.1",
            "-ext", "SAN=ip:127.0.0.1", "-validity", "2", "-keystore", "idp.p12", "-storetype", "PKCS12",
            "-storepass", "idp-pass");
        keytool("-exportcert", "-alias", "idp", "-keystore", "idp.p12", "-storetype", "PKCS12", "-storepass", "idp-pass",
            "-file", "idp.cer");
        keytool("-importcert", "-noprompt", "-alias", "idp", "-file", "idp.cer", "-keystore", "trust.p12",
            "-storetype", "PKCS12", "-storepass", "trust-pass");
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(dir.resolve("idp.p12"))) {
            ks.load(in, "idp-pass".toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, "idp-pass".toCharArray());
        SSLContext server = SSLContext.getInstance("TLSv1.3");
        server.init(kmf.getKeyManagers(), null, null);

        TestIssuer issuer = new TestIssuer("k1");
        try (JwksServer idp = new JwksServer(server)) {
            idp.body.set(Files.readString(TestIssuer.writeJwks(dir.resolve("jwks.json"), issuer)));
            System.setProperty(OAuthBearerMechanism.ALLOWED_URLS_PROPERTY, idp.url());
            String trusted = OAuthBearerMechanism.LOGIN_MODULE + " required ssl.truststore.location=\""
                + dir.resolve("trust.p12") + "\" ssl.truststore.password=\"trust-pass\" ssl.truststore.type=\"PKCS12\";";
            try (OAuthBearerMechanism m = OAuthBearerMechanism.create(TestSettings.of("SASL_SSL", "OAUTHBEARER", Map.of(
                    "oauthbearer.sasl.jaas.config", trusted, OAuthBearerMechanism.JWKS_ENDPOINT_URL, idp.url())))) {
                SaslServer s = m.newServer();
                s.evaluateResponse(TestIssuer.firstMessage("", issuer.sign(TestIssuer.claims("alice", 600)), Map.of()));
                assertThat(s.getAuthorizationID()).isEqualTo("alice");
                assertThat(idp.requests.get()).isPositive();
            }
            // without the trust store the self-signed endpoint is not trusted: no keys, every token refused
            try (OAuthBearerMechanism m = OAuthBearerMechanism.create(TestSettings.of("SASL_SSL", "OAUTHBEARER", Map.of(
                    "oauthbearer.sasl.jaas.config", OAuthBearerMechanism.LOGIN_MODULE + " required;",
                    OAuthBearerMechanism.JWKS_ENDPOINT_URL, idp.url())))) {
                SaslServer s = m.newServer();
                s.evaluateResponse(TestIssuer.firstMessage("", issuer.sign(TestIssuer.claims("alice", 600)), Map.of()));
                assertThat(s.isComplete()).isFalse();
            }
            assertThatThrownBy(() -> OAuthBearerMechanism.create(TestSettings.of("SASL_SSL", "OAUTHBEARER", Map.of(
                    "oauthbearer.sasl.jaas.config", OAuthBearerMechanism.LOGIN_MODULE + " required ssl.truststore.location=\""
                        + dir.resolve("missing.p12") + "\";", OAuthBearerMechanism.JWKS_ENDPOINT_URL, idp.url()))))
                .hasMessageContaining("ssl.truststore.location").hasMessageContaining("missing.p12");
        }
    }
}
