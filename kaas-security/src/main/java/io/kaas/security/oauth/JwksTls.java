package io.kaas.security.oauth;

import io.kaas.security.sasl.JaasModule;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * The TLS trust of an {@code https:} JWKS endpoint, as Kafka's broker takes it: from {@code ssl.truststore.location},
 * {@code ssl.truststore.password} and {@code ssl.truststore.type} (JKS or PKCS12, default JKS) among the options of
 * the mechanism's JAAS config; without them the JVM's default trust. The endpoint's host name is always verified.
 */
final class JwksTls {

    static final String TRUSTSTORE_LOCATION = "ssl.truststore.location";
    static final String TRUSTSTORE_PASSWORD = "ssl.truststore.password";
    static final String TRUSTSTORE_TYPE = "ssl.truststore.type";
    static final String PROTOCOL = "ssl.protocol";

    private JwksTls() {
    }

    /**
     * The socket factory {@code module}'s {@code ssl.truststore.*} options describe, or null for the JVM's default.
     *
     * @throws IllegalArgumentException naming the option when the trust store cannot be read (never its password)
     */
    static SSLSocketFactory socketFactory(JaasModule module) {
        String location = module.option(TRUSTSTORE_LOCATION);
        if (location == null || location.isBlank()) {
            return null;
        }
        String type = module.option(TRUSTSTORE_TYPE) == null ? "JKS" : module.option(TRUSTSTORE_TYPE).trim();
        String password = module.option(TRUSTSTORE_PASSWORD);
        try (InputStream in = Files.newInputStream(Path.of(location.trim()))) {
            KeyStore trust = KeyStore.getInstance(type);
            trust.load(in, password == null ? null : password.toCharArray());
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            String protocol = module.option(PROTOCOL) == null ? "TLSv1.3" : module.option(PROTOCOL).trim();
            SSLContext context = SSLContext.getInstance(protocol);
            context.init(null, tmf.getTrustManagers(), null);
            return context.getSocketFactory();
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("the JAAS option " + TRUSTSTORE_LOCATION + " (" + location
                + ", type " + type + ") cannot be used as the JWKS endpoint's trust store: " + e.getMessage(), e);
        }
    }
}
