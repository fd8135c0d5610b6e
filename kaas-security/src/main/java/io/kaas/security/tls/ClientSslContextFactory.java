package io.kaas.security.tls;

import io.netty.handler.ssl.IdentityCipherSuiteFilter;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.security.KeyStore;
import java.security.KeyStoreException;
import java.security.NoSuchAlgorithmException;
import java.security.UnrecoverableKeyException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.net.ssl.KeyManagerFactory;

/**
 * Builds the client {@link SslContext} a broker uses towards another broker's listener, from that listener's Kafka
 * {@code ssl.*} values, as Kafka's inter-broker client does: the trust store decides which servers are trusted (none
 * configured: the JDK's default trust), the key store (optional) is the certificate offered when the server asks for
 * one, protocols and cipher suites as configured, and {@code ssl.endpoint.identification.algorithm} (Kafka's default
 * {@code https}: the server's certificate must name the host connected to; empty turns the check off). Every problem
 * is a {@link TlsConfigException} naming the key; a password never appears in a message.
 */
public final class ClientSslContextFactory {
    /** Kafka's key of the server host name check; its default is {@code https}. */
    public static final String ENDPOINT_IDENTIFICATION_ALGORITHM = "ssl.endpoint.identification.algorithm";

    private ClientSslContextFactory() {
    }

    /**
     * @param ssl the listener's {@code ssl.*} values (its {@code listener.name.<l>.} overrides applied), with
     *            {@link #ENDPOINT_IDENTIFICATION_ALGORITHM} if set
     * @throws TlsConfigException if a value cannot be used
     */
    public static SslContext build(Map<String, String> ssl) {
        ServerSslContextFactory.Values v = new ServerSslContextFactory.Values(ssl);
        ServerSslContextFactory.checkProtocol(v.get(SslKeys.PROTOCOL, SslKeys.DEFAULT_PROTOCOL));
        List<String> protocols = ServerSslContextFactory.protocols(
            v.list(SslKeys.ENABLED_PROTOCOLS, SslKeys.DEFAULT_ENABLED_PROTOCOLS));
        SslContextBuilder builder = SslContextBuilder.forClient();
        keyStore(v, builder);
        ServerSslContextFactory.trustStore(v, builder);
        String identification = ssl.containsKey(ENDPOINT_IDENTIFICATION_ALGORITHM)
            ? ssl.get(ENDPOINT_IDENTIFICATION_ALGORITHM) : "https";
        builder.sslProvider(SslProvider.JDK).protocols(protocols)
            .endpointIdentificationAlgorithm(identification == null || identification.isBlank() ? null
                : identification.trim().toUpperCase(Locale.ROOT));
        List<String> ciphers = v.list(SslKeys.CIPHER_SUITES, "");
        if (!ciphers.isEmpty()) {
            builder.ciphers(ciphers, IdentityCipherSuiteFilter.INSTANCE);
        }
        try {
            return builder.build();
        } catch (IOException | RuntimeException e) {
            throw new TlsConfigException(ciphers.isEmpty() ? SslKeys.TRUSTSTORE_LOCATION : SslKeys.CIPHER_SUITES,
                "cannot build the TLS client context: " + ServerSslContextFactory.rootMessage(e), e);
        }
    }

    /** The certificate the client offers: none without a key store; JKS, PKCS12 or PEM as the server's. */
    private static void keyStore(ServerSslContextFactory.Values v, SslContextBuilder builder) {
        String type = v.get(SslKeys.KEYSTORE_TYPE, SslKeys.DEFAULT_STORE_TYPE).toUpperCase(Locale.ROOT);
        String location = v.get(SslKeys.KEYSTORE_LOCATION);
        String password = v.get(SslKeys.KEYSTORE_PASSWORD);
        String keyPassword = v.get(SslKeys.KEY_PASSWORD);
        String key = v.get(SslKeys.KEYSTORE_KEY);
        String chain = v.get(SslKeys.KEYSTORE_CERTIFICATE_CHAIN);
        if (key != null || type.equals(SslKeys.PEM) && location != null) {
            String keyText = key != null ? key : ServerSslContextFactory.readText(SslKeys.KEYSTORE_LOCATION, location);
            String chainText = key != null ? chain : keyText;
            if (chainText == null) {
                throw new TlsConfigException(SslKeys.KEYSTORE_CERTIFICATE_CHAIN, "SSL private key is specified, but "
                    + "certificate chain is not specified.");
            }
            try {
                builder.keyManager(ServerSslContextFactory.stream(chainText), ServerSslContextFactory.stream(keyText),
                    keyPassword);
            } catch (RuntimeException e) {
                throw new TlsConfigException(key != null ? SslKeys.KEYSTORE_KEY : SslKeys.KEYSTORE_LOCATION,
                    "Invalid PEM keystore configs: " + ServerSslContextFactory.rootMessage(e), e);
            }
            return;
        }
        if (location == null) {
            return;
        }
        if (password == null) {
            throw new TlsConfigException(SslKeys.KEYSTORE_PASSWORD, "SSL key store is specified, but key store password "
                + "is not specified.");
        }
        KeyStore store = ServerSslContextFactory.load(SslKeys.KEYSTORE_TYPE, SslKeys.KEYSTORE_LOCATION,
            SslKeys.KEYSTORE_PASSWORD, type, location, password);
        String algorithm = v.get(SslKeys.KEYMANAGER_ALGORITHM, KeyManagerFactory.getDefaultAlgorithm());
        try {
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(algorithm);
            kmf.init(store, (keyPassword != null ? keyPassword : password).toCharArray());
            builder.keyManager(kmf);
        } catch (NoSuchAlgorithmException e) {
            throw new TlsConfigException(SslKeys.KEYMANAGER_ALGORITHM, "unknown key manager algorithm '" + algorithm + "'");
        } catch (UnrecoverableKeyException e) {
            throw new TlsConfigException(keyPassword != null ? SslKeys.KEY_PASSWORD : SslKeys.KEYSTORE_PASSWORD,
                "cannot recover the private key in " + location + ": wrong key password", e);
        } catch (KeyStoreException e) {
            throw new TlsConfigException(SslKeys.KEYSTORE_LOCATION, "cannot use key store " + location + ": "
                + ServerSslContextFactory.rootMessage(e), e);
        }
    }
}
